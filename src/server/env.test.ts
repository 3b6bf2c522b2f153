import { describe, expect, it } from 'vitest';
import { readEnv } from './env.ts';

describe('readEnv', () => {
  it('has defaults that need no configuration', () => {
    const env = readEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toMatch(/\/data$/);
  });

  it('takes PORT and DATA_DIR from the environment', () => {
    const env = readEnv({ PORT: '8080', DATA_DIR: '/tmp/site-data' });
    expect(env.PORT).toBe(8080);
    expect(env.DATA_DIR).toBe('/tmp/site-data');
  });

  it.each([['abc'], ['0'], ['70000'], ['3.5']])('stops on PORT=%s, naming the variable', (port) => {
    expect(() => readEnv({ PORT: port })).toThrow(/PORT/);
  });
});

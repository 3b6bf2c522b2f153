import { describe, expect, it } from 'vitest';
import { logLine } from './api-error.ts';

describe('logLine', () => {
  it('says an error in one short line: kind, code, message and where it was thrown', () => {
    const error = Object.assign(new Error(`invalid byte sequence\n${'x'.repeat(100_000)}`), {
      code: '22021',
      params: ['y'.repeat(100_000)],
    });
    const line = logLine(error, 'POST /api/posthog/e/');
    expect(line).toMatch(/^POST \/api\/posthog\/e\/: Error 22021: invalid byte sequence x+ \(at .*api-error\.test\.ts/);
    expect(line).not.toContain('\n');
    expect(line).not.toContain('yyy');
    expect(line.length).toBeLessThan(600);
  });

  it('copes with something thrown that is not an error', () => {
    expect(logLine('plain', 'GET /api/x')).toMatch(/^GET \/api\/x: Error: plain/);
  });
});

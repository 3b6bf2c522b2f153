import { describe, expect, it } from 'vitest';
import { returnPath } from './return-to.ts';

describe('returnPath', () => {
  it('takes the console and its pages only', () => {
    expect(returnPath('?next=/console')).toBe('/console');
    expect(returnPath('?next=%2Fconsole%2Fmessages%2F0b6c3f4e-1a2b-4c5d-8e9f-0a1b2c3d4e5f')).toBe(
      '/console/messages/0b6c3f4e-1a2b-4c5d-8e9f-0a1b2c3d4e5f',
    );
    for (const search of [
      '',
      '?next=',
      '?next=https://evil.example/console',
      '?next=//evil.example/console',
      '?next=/console/../en/account',
      '?next=/console//evil.example',
      '?next=/consoleX',
      '?next=/en/account',
      '?next=javascript:alert(1)',
    ]) {
      expect(returnPath(search), search).toBeNull();
    }
  });
});

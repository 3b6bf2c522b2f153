import { describe, expect, it } from 'vitest';
import { keepSignInPass, signInPassFor } from './sign-in-pass.ts';

describe('the sign-in pass of a reset', () => {
  it('goes with a sign-in as the address it was given for, however it is typed, and no other', () => {
    expect(signInPassFor('ada@example.com')).toEqual({});
    keepSignInPass('ada@example.com', '123.abc');
    expect(signInPassFor(' Ada@Example.com ')).toEqual({ signInPass: '123.abc' });
    expect(signInPassFor('eve@example.com')).toEqual({});
  });
});

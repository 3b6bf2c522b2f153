/**
 * The pass a password reset gives (see ResetAnswer), kept in this page's memory only, for the
 * sign-in that follows: it gets the owner past a sign-in lock that someone else set off. Nothing is
 * stored in the browser; a reload forgets it.
 */
let kept: { email: string; pass: string } | null = null;

export function keepSignInPass(email: string, pass: string) {
  kept = { email: email.trim().toLowerCase(), pass };
}

/** `{ signInPass }` to send with a sign-in as `email`, when a reset gave one for it; else nothing. */
export function signInPassFor(email: string): { signInPass?: string } {
  return kept && kept.email === email.trim().toLowerCase() ? { signInPass: kept.pass } : {};
}

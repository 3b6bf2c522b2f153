import { ApiError } from '#server/http/api-error.ts';

/**
 * The passwords people choose most, which an attacker tries first (ASVS 6.2.4): the 49,233 of
 * zxcvbn-ts's common list (MIT, kept by the zxcvbn-ts project, read from the package, no network),
 * of which 17,950 are long enough to pass the length rule. Compared without regard to case,
 * "Password1" being as guessable as "password1". Read on the first password chosen, not at start:
 * the list costs about 2 MB, and most processes never set a password.
 */
let common: Promise<Set<string>> | undefined;

function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].filter((password) => password.length >= 8)),
  );
  return common;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}

/** Refuses a new password from the list, under its field (`password`, or the form's own name for it). */
export async function refuseCommonPassword(password: string, field = 'password'): Promise<void> {
  if (await isCommonPassword(password))
    throw new ApiError(400, 'PASSWORD_TOO_COMMON', { fields: { [field]: 'PASSWORD_TOO_COMMON' } });
}

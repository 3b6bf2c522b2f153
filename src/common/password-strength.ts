import { characterCount, PASSWORD_MIN_LENGTH } from './field-bounds.ts';

export type PasswordStrength = 'strong' | 'weak';

/** The strength indicator's one rule: at least 8 characters is strong, fewer weak, nothing to say when empty. */
export function passwordStrength(password: string): PasswordStrength | null {
  if (password === '') return null;
  return characterCount(password) >= PASSWORD_MIN_LENGTH ? 'strong' : 'weak';
}

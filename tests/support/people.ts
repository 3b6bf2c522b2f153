import { randomBytes } from 'node:crypto';

let people = 0;

/** Someone new: a name, and an email address and a phone number no other test uses. */
export function newPerson(name = 'Ada Lovelace') {
  const n = ++people;
  const tag = randomBytes(4).toString('hex');
  return {
    name: `${name} ${n}`,
    email: `ada-${tag}-${n}@example.com`,
    // A UK mobile number (074…): a range every digit of which makes a valid number.
    phone: `+44 74${String(Number.parseInt(tag, 16) % 10_000_000).padStart(7, '0')}${n % 10}`,
    password: `correct horse ${tag}`,
  };
}

/** The six-digit code of a mail's text. */
export function codeIn(mailText: string): string {
  const code = /^\s+(\d{6})$/m.exec(mailText)?.[1];
  if (!code) throw new Error(`No code in mail:\n${mailText}`);
  return code;
}

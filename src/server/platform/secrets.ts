import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const SECRET_FILE = 'server-secret';

/**
 * The server's signing key: SERVER_SECRET when set (needed when several instances must agree),
 * else one generated on first start and kept in DATA_DIR, readable by its owner only.
 */
export async function loadServerSecret(dataDir: string, fromEnv?: string): Promise<Buffer> {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  const file = path.join(dataDir, SECRET_FILE);
  try {
    return Buffer.from(await readFile(file, 'utf8'), 'base64url');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32);
  try {
    await writeFile(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another instance sharing DATA_DIR wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return Buffer.from(await readFile(file, 'utf8'), 'base64url');
    throw error;
  }
}

/**
 * What the database keeps of a short value worth hiding (a code, an address or an email in a rate
 * limit key): a keyed hash, since a million codes or every IPv4 address could be tried against a
 * plain one.
 */
export const keyedHash = (secret: Buffer, ...parts: string[]) =>
  createHmac('sha256', hmacKey(secret)).update(parts.join('\u0000')).digest('base64url');

const keys = new WeakMap<Buffer, KeyObject>();
/**
 * The secret as a key object, made once: given a Buffer, every HMAC first tries it as a key object
 * and a CryptoKey and copies it, which cost five times the hash itself (the fingerprint exchange,
 * at a thousand a second, spent a fifth of its processor there).
 */
export function hmacKey(secret: Buffer): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    keys.set(secret, key);
  }
  return key;
}

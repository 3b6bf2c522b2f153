const SECONDS_PER_DAY = 24 * 60 * 60;

/** A cookie's value as the browser has it, or null. */
export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === name) {
      try {
        return decodeURIComponent(part.slice(separator + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Writes a first-party cookie for the whole site, readable by the server, only over HTTPS. */
export function writeCookie(
  entry: { name: string; lifetime: { days: number } },
  value: string,
  options: { sameSite: 'Lax' | 'Strict' } = { sameSite: 'Lax' },
) {
  const maxAge = entry.lifetime.days * SECONDS_PER_DAY;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers the site supports
  document.cookie = `${entry.name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=${options.sameSite}; Secure`;
}

export function deleteCookie(name: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: as above
  document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Lax; Secure`;
}

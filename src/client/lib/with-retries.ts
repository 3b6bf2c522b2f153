/** Waits before each new try of what could not be fetched (a dropped connection, an instance restarting). */
const RETRY_DELAYS_MS = [500, 2_000, 5_000];

/**
 * `load`, tried again after each delay while it fails; the last failure is the answer.
 * A chunk or texts that never arrive would leave their component empty for the rest of the page's
 * life, and the visitor with a button that does nothing.
 */
export async function withRetries<T>(load: () => Promise<T>, delays: readonly number[] = RETRY_DELAYS_MS): Promise<T> {
  for (const delay of delays) {
    try {
      return await load();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  return load();
}

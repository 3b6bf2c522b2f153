import { FINGERPRINT_PATH, type FingerprintAnswer, type FingerprintRecord } from '#common/fingerprint.ts';

/** The specification's pause between getting the identifier and writing the cookie. */
export const COOKIE_WRITE_DELAY_MS = 100;
/** A server that does not answer in time is a failure like any other, not a flow that never ends. */
export const FINGERPRINT_TIMEOUT_MS = 10_000;

export interface VisitorIdState {
  visitorId: string | null;
  loading: boolean;
  error: string | null;
}

/** What the flow needs from the browser; tests pass their own. */
export interface VisitorIdPorts {
  readCookie(): string | null;
  writeCookie(fpid: string): void;
  computeFingerprint(): Promise<FingerprintRecord>;
  fetch(input: string, init: RequestInit): Promise<Response>;
  setTimeout(callback: () => void, ms: number): unknown;
}

/** The error texts of the specification, for the cases it names. */
function messageOf(error: unknown): string {
  return (error instanceof Error && error.message) || 'Unknown error occurred';
}

async function requestFpid(ports: VisitorIdPorts): Promise<string> {
  const record = await ports.computeFingerprint();
  const response = await ports.fetch(FINGERPRINT_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(record),
    signal: AbortSignal.timeout(FINGERPRINT_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`Edge function returned ${response.status}`);
  const answer = (await response.json()) as Partial<FingerprintAnswer> | null;
  if (typeof answer?.fpid !== 'string' || answer.fpid === '') throw new Error('Edge function did not return fpid');
  return answer.fpid;
}

/**
 * The visitor identifier flow of the specification: the `_fpid` cookie when there is one (nothing
 * is sent); otherwise the fingerprint record goes to the server and its fpid is used. The cookie is
 * written at once, so that a form sent now or a page opened next already carries it (decision
 * 051), and, as the specification has it, again about 100 ms later if it is missing or holds
 * something else by then.
 */
export async function obtainVisitorId(ports: VisitorIdPorts): Promise<VisitorIdState> {
  const stored = ports.readCookie();
  if (stored) return { visitorId: stored, loading: false, error: null };
  try {
    const fpid = await requestFpid(ports);
    ports.writeCookie(fpid);
    ports.setTimeout(() => {
      if (ports.readCookie() !== fpid) ports.writeCookie(fpid);
    }, COOKIE_WRITE_DELAY_MS);
    return { visitorId: fpid, loading: false, error: null };
  } catch (error) {
    return { visitorId: null, loading: false, error: messageOf(error) };
  }
}

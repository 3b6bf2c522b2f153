/** Where the browser exchanges its fingerprint record for the visitor identifier. */
export const FINGERPRINT_PATH = '/api/fingerprint';

/**
 * The fingerprint record of the specification, as the browser sends it to /api/fingerprint. Each
 * component is a short hash of what FingerprintJS read (not the raw canvas or font list), so the
 * record stays small and carries nothing the server does not need. The server checks it with
 * features/visitor/fingerprint-schema.ts; the browser needs only its shape.
 */
export interface FingerprintRecord {
  visitorId: string;
  components: Record<string, string>;
  userAgent: string;
  timestamp: number;
}

export interface FingerprintAnswer {
  fpid: string;
}

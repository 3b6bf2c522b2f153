import { z } from 'zod';

/** Where the browser exchanges its fingerprint record for the visitor identifier. */
export const FINGERPRINT_PATH = '/api/fingerprint';

/** FingerprintJS's visitorId: a 128-bit hash written as 32 hexadecimal digits. */
const VISITOR_ID = /^[0-9a-f]{32}$/;
const COMPONENT_NAME = /^[A-Za-z0-9_]{1,64}$/;
export const MAX_COMPONENTS = 64;
export const MAX_COMPONENT_LENGTH = 128;
export const MAX_USER_AGENT_LENGTH = 1024;

/**
 * The fingerprint record of the specification, as the browser sends it to /api/fingerprint. Each
 * component is a short hash of what FingerprintJS read (not the raw canvas or font list), so the
 * record stays small and carries nothing the server does not need.
 */
export const FingerprintRecordSchema = z
  .object({
    visitorId: z.string().regex(VISITOR_ID),
    components: z
      .record(z.string().regex(COMPONENT_NAME), z.string().max(MAX_COMPONENT_LENGTH))
      .refine((components) => Object.keys(components).length <= MAX_COMPONENTS),
    userAgent: z.string().max(MAX_USER_AGENT_LENGTH),
    timestamp: z.number().int().positive().max(8.64e15),
  })
  .strict();

export type FingerprintRecord = z.infer<typeof FingerprintRecordSchema>;

export interface FingerprintAnswer {
  fpid: string;
}

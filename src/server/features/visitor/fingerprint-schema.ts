import { z } from 'zod';
import type { FingerprintRecord } from '#common/fingerprint.ts';

/** FingerprintJS's visitorId: a 128-bit hash written as 32 hexadecimal digits. */
const VISITOR_ID = /^[0-9a-f]{32}$/;
const COMPONENT_NAME = /^[A-Za-z0-9_]{1,64}$/;
const MAX_COMPONENTS = 64;
const MAX_COMPONENT_LENGTH = 128;
const MAX_USER_AGENT_LENGTH = 1024;

/** What the server accepts as a fingerprint record (src/common/fingerprint.ts). */
export const FingerprintRecordSchema: z.ZodType<FingerprintRecord> = z
  .object({
    visitorId: z.string().regex(VISITOR_ID),
    components: z
      .record(z.string().regex(COMPONENT_NAME), z.string().max(MAX_COMPONENT_LENGTH))
      .refine((components) => Object.keys(components).length <= MAX_COMPONENTS),
    userAgent: z.string().max(MAX_USER_AGENT_LENGTH),
    timestamp: z.number().int().positive().max(8.64e15),
  })
  .strict();

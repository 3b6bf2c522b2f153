import type { FingerprintRecord } from '#common/fingerprint.ts';
import { z } from '#common/zod.ts';

/** FingerprintJS's visitorId: a 128-bit hash written as 32 hexadecimal digits. */
const VISITOR_ID = /^[0-9a-f]{32}$/;
const COMPONENT_NAME = /^[A-Za-z0-9_]{1,64}$/;
const MAX_COMPONENTS = 64;
const MAX_COMPONENT_LENGTH = 128;
const MAX_USER_AGENT_LENGTH = 1024;

/** What the server accepts as a fingerprint record (src/common/fingerprint.ts). */
export const FingerprintRecordSchema: z.ZodMiniType<FingerprintRecord> = z.strictObject({
  visitorId: z.string().check(z.regex(VISITOR_ID)),
  components: z
    .record(z.string().check(z.regex(COMPONENT_NAME)), z.string().check(z.maxLength(MAX_COMPONENT_LENGTH)))
    .check(z.refine((components) => Object.keys(components).length <= MAX_COMPONENTS)),
  userAgent: z.string().check(z.maxLength(MAX_USER_AGENT_LENGTH)),
  timestamp: z.number().check(z.int(), z.positive(), z.maximum(8.64e15)),
});

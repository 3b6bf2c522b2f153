import { z } from './zod.ts';

// zod/mini carries no messages of its own: a failed rule says "Invalid input". The operator reads
// the environment's and config.json's failures, so the server and the build speak English; the
// browser's schemas name error codes instead and stay without the locale.
z.config(z.locales.en());

export { z };

import { z } from 'zod/mini';

// The pages' Content-Security-Policy forbids eval. Left to itself, zod tries `Function('')` once to
// decide whether to compile its parsers, and the browser reports that try as a violation; jitless,
// it never tries. One setting for every schema, shared with the full zod the server uses.
z.config({ jitless: true });

export { z };

import { z } from 'zod/mini';

// The pages' Content-Security-Policy forbids eval. Left to itself, zod tries `Function('')` once to
// decide whether to compile its parsers, and the browser reports that try as a violation; jitless,
// it never tries. One setting for every schema, in the browser and on the server.
z.config({ jitless: true });

export { z };

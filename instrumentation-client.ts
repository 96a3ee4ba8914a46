import { z } from "zod";

// Zod compiles object parsers with `new Function` unless told not to. The CSP (proxy.ts) allows no
// eval, and even zod's attempt to find out is reported as a violation. This runs before any client
// module builds a schema; the server keeps the compiled parsers.
z.config({ jitless: true });

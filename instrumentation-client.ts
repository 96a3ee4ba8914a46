// zod/v4/core's config is the one z.config sets: importing it alone keeps the rest of zod (30 KiB
// compressed) out of every page's first load (docs/decisions/0065-on-demand-dialogs.md).
import { config } from "zod/v4/core";

// Zod compiles object parsers with `new Function` unless told not to. The CSP (proxy.ts) allows no
// eval, and even zod's attempt to find out is reported as a violation. This runs before any client
// module builds a schema; the server keeps the compiled parsers.
config({ jitless: true });

// Zod compiles object parsers with `new Function` unless told not to. The CSP (proxy.ts) allows no
// eval, and even zod's attempt to find out is reported as a violation. This runs before any client
// module builds a schema; the server keeps the compiled parsers. It sets zod's global settings
// object (what z.config() writes, kept on globalThis so every copy of zod shares it) rather than
// calling z.config(): importing zod here would put it, 33 KiB, on every page, the many that never
// parse on the client among them (docs/decisions/0063-shared-page-weight.md).
const zodSettings = ((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= {});
zodSettings.jitless = true;

// Loaded into the e2e servers only (`node --import`, e2e/start-server.sh), never into a production
// one: it moves a session's clock in the server's own database, as tests/sudo-mode.test.ts does
// in vitest, so e2e/sudo-mode.spec.ts sees sudo mode run out without waiting for it. A spec cannot
// open the server's embedded database itself: PGlite has a single owning process, this one.
// Plain JavaScript: plain `node` runs the server (docs/testing.md#end-to-end).
import cluster from "node:cluster";
import http from "node:http";
import postgres from "postgres";

/** db/index.ts keeps the process's database handle here (its PGlite on the embedded database). */
const DB_HANDLE = Symbol.for("invoicing.db.handle");

/**
 * Turns back the sudo clock (authenticated_at) of the sessions `email` signed in since `since`
 * (epoch ms) by `seconds`. On PostgreSQL a connection of its own; the primary of a cluster opens
 * no database, and the workers share the port this listens on.
 */
async function ageSessions({ email, since, seconds }) {
  const text = `update sessions set authenticated_at = authenticated_at - make_interval(secs => $3)
    where user_id = (select id from users where email = $1) and created_at >= to_timestamp($2 / 1000.0)`;
  if (process.env.DATABASE_URL) {
    const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      return (await sql.unsafe(text, [email, since, seconds])).count;
    } finally {
      await sql.end();
    }
  }
  const pglite = globalThis[DB_HANDLE]?.pglite;
  if (!pglite) throw new Error("The server has not opened its database yet.");
  return (await pglite.query(text, [email, since, seconds])).affectedRows;
}

if (cluster.isPrimary && process.env.E2E_CLOCK_PORT) {
  http
    .createServer(async (request, response) => {
      try {
        let body = "";
        for await (const chunk of request) body += chunk;
        const aged = await ageSessions(JSON.parse(body));
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ aged }));
      } catch (error) {
        response.writeHead(500).end(String(error));
      }
    })
    .listen(Number(process.env.E2E_CLOCK_PORT), "127.0.0.1")
    // Never keeps the server running past its own end.
    .unref();
}

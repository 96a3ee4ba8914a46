#!/usr/bin/env bash
# Starts one of the e2e servers (E2E_SERVER, from playwright.config.ts): a fresh database of its own,
# embedded or on the DATABASE_URL server, seeded with the demo data, on a production build.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_ENV=production
export NEXT_TELEMETRY_DISABLED=1
export AUTH_SECRET="${AUTH_SECRET:-e2e-secret-not-for-production-0123456789}"
# The webhook specs' receivers listen on 127.0.0.1, which the SSRF guard refuses unless told otherwise.
export WEBHOOK_ALLOW_PRIVATE=true
# Sudo mode (docs/security.md#sudo-mode) asks for the password again after 30 seconds instead of 10 minutes, so specs
# meet the question as a person who stays signed in does; every page but the sudo spec's answers it (e2e/fixtures.ts).
export SUDO_MODE_SECONDS="${SUDO_MODE_SECONDS:-30}"
# Every spec signs up from 127.0.0.1, more than the 10 an hour one address gets in production.
export SIGN_UPS_PER_HOUR="${SIGN_UPS_PER_HOUR:-1000}"
SERVER="${E2E_SERVER:-0}"
# Secret scanning reports (docs/security.md#leaked-keys-and-secret-scanning) are checked against keys e2e/secret-scanner.ts serves here.
export SECRET_SCANNING_KEYS_URL="http://127.0.0.1:$((3190 + SERVER))/keys"
# Email domains are verified (docs/features/sso.md#domains) against the DNS server e2e/sso.spec.ts runs here.
export SSO_DNS_SERVERS="127.0.0.1:$((3290 + SERVER))"
if [ -z "${DATABASE_URL:-}" ]; then
  rm -rf "data/e2e/server-$SERVER"
  export PGLITE_DIR="$PWD/data/e2e/server-$SERVER/pglite"
else
  DATABASE_URL="$(npx tsx e2e/fresh-database.ts)"
  export DATABASE_URL
  # Two workers share each server's port (docs/operations.md#every-core), as on a production machine: sessions, sudo
  # mode, the live tail and the limits must hold whichever worker answers.
  export WEB_CONCURRENCY="${WEB_CONCURRENCY:-2}"
fi
# The servers after the first serve the build the first one made, as does .ci/run's PostgreSQL pass
# (the build reads no database): `npm run build`'s, rebuilt only if the sources changed since.
if [ -z "${E2E_REUSE_BUILD:-}" ]; then node scripts/build.mjs; else node scripts/build.mjs --if-stale; fi
npx tsx scripts/db-seed.ts
# As `npm start` runs it: the compiled server under plain node, so the browser tests test what runs;
# with e2e/session-clock.mjs beside it, which only the e2e servers load (the sudo spec's clock).
exec node --enable-source-maps --import ./e2e/session-clock.mjs dist/server.js

#!/usr/bin/env bash
# Starts the app for the e2e tests: a fresh embedded database (or the DATABASE_URL server),
# seeded with the demo data, on a production build.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_ENV=production
export NEXT_TELEMETRY_DISABLED=1
export AUTH_SECRET="${AUTH_SECRET:-e2e-secret-not-for-production-0123456789}"
# The webhook specs' receivers listen on 127.0.0.1, which SPEC §10 refuses unless told otherwise.
export WEBHOOK_ALLOW_PRIVATE=true
if [ -z "${DATABASE_URL:-}" ]; then
  rm -rf data/e2e
  export PGLITE_DIR="$PWD/data/e2e/pglite"
fi
# .ci/run's second pass (PostgreSQL) serves the build its first pass made: the build reads no database.
if [ -z "${E2E_REUSE_BUILD:-}" ] || [ ! -f .next/BUILD_ID ]; then npx next build; fi
npx tsx scripts/db-seed.ts
exec node --conditions=react-server --import tsx server.ts

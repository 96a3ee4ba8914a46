#!/usr/bin/env node
// The compiled command line (packages/cli/src/main.ts); `npm install` builds it (the package's prepare script).
import { main } from "../dist/main.js";

process.exitCode = await main(process.argv.slice(2));

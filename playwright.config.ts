import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { E2E_WORKERS, serverOrigin, serverPort, sessionClockPort } from "./e2e/servers";

// Debian's headless shell (the old headless mode) when installed: the same Blink as `chromium`
// without the full browser's UI process, it took half the browser process's CPU in the e2e run.
const chromiumPath =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => process.platform === "linux" && existsSync(file));

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  // A file's specs run in order on one worker; files spread over the workers, each with its own server.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    // e2e/fixtures.ts points each worker at its own server; the setup project names each server.
    baseURL: serverOrigin(0),
    // The app honours prefers-reduced-motion (app/globals.css): dialogs open and skeletons stop
    // at once, so no frame is drawn for an animation no assertion looks at.
    reducedMotion: "reduce",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    { name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 860 } }, dependencies: ["setup"] },
  ],
  // One production build, made by the first server's start and served by all; each server seeds a
  // database of its own (e2e/start-server.sh). Playwright starts them one after another.
  webServer: Array.from({ length: E2E_WORKERS }, (_, server) => ({
    command: "bash e2e/start-server.sh",
    url: `${serverOrigin(server)}/signin`,
    timeout: 300_000,
    reuseExistingServer: !process.env.CI,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(serverPort(server)),
      E2E_CLOCK_PORT: String(sessionClockPort(server)),
      E2E_SERVER: String(server),
      ...(server > 0 ? { E2E_REUSE_BUILD: "1" } : {}),
    },
  })),
});

import type http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { log } from "@/core/log";
import { SECRET_SCANNING_KEYS_MAX_BYTES } from "@/lib/secret-scanning/public-keys";
import { eventually } from "./helpers/eventually";
import { createTeam, insertKey } from "./helpers/factories";
import { answerAt, github, keyPair, report, serveKeyList, startKeyServer, stopKeyServer } from "./helpers/secret-scanner";

// Secret scanning's signing keys, fetched from SECRET_SCANNING_KEYS_URL (served here on 127.0.0.1): cached,
// fetched again for a new identifier, read only up to a bound, and not fetched again for every
// report while the list is failing.

beforeAll(startKeyServer);
afterAll(stopKeyServer);
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  process.env.SECRET_SCANNING_KEYS_URL = github.url;
});

async function liveKey() {
  const team = await createTeam("pro");
  return insertKey(team.org.id, { name: "Reported" });
}

it("fetches GitHub's keys once, and again for an identifier it has not seen, at most once a minute", async () => {
  // A list URL of its own: its cache starts empty.
  process.env.SECRET_SCANNING_KEYS_URL = `${github.url}?rotation`;
  const key = await liveKey();
  const fetchesBefore = github.fetches;
  try {
    expect((await report([{ token: key.value }])).status).toBe(200);
    expect((await report([{ token: key.value }])).status).toBe(200);
    expect(github.fetches - fetchesBefore).toBe(1);

    // GitHub rotates to a new key. Within the minute the list is not fetched again, however many unknown identifiers come.
    github.keys.push({ id: "github-key-2", ...keyPair() });
    const byNewKey = () => report([{ token: key.value }], { identifier: "github-key-2", signWith: github.keys[1]!.privateKey });
    expect((await byNewKey()).status).toBe(401);
    expect((await report([{ token: key.value }], { identifier: "made-up" })).status).toBe(401);
    expect(github.fetches - fetchesBefore).toBe(1);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    expect((await byNewKey()).status).toBe(200);
    expect(github.fetches - fetchesBefore).toBe(2);
  } finally {
    github.keys.pop();
  }
});

/** A "key list" of 40 MB of JSON whitespace, written as fast as the client reads it; what was served, and whether the client hung up first. */
function oversizedList(path: string, declareLength: boolean) {
  const total = 40 * 1024 * 1024;
  const served = { bytes: 0, hungUp: false };
  const url = answerAt(path, (_request, response: http.ServerResponse) => {
    response.writeHead(200, { "content-type": "application/json", ...(declareLength ? { "content-length": String(total) } : {}) });
    response.on("close", () => (served.hungUp = !response.writableFinished));
    const chunk = Buffer.alloc(64 * 1024, " ");
    const write = () => {
      while (served.bytes < total) {
        served.bytes += chunk.length;
        if (!response.write(chunk)) return void response.once("drain", write);
      }
      response.end();
    };
    write();
  });
  return { url, served, total };
}

describe("a key list larger than any of GitHub's", () => {
  it.each([
    ["sent without a length", false],
    ["declaring its length", true],
  ])("is refused %s, without reading it all, with a logged reason, and the report answered 503", async (_case, declareLength) => {
    const key = await liveKey();
    const list = oversizedList(`/huge-${String(declareLength)}`, declareLength);
    process.env.SECRET_SCANNING_KEYS_URL = list.url;
    const logged = vi.spyOn(log, "error").mockImplementation(() => {}) as unknown as MockInstance<(fields: { err: Error }, message: string) => void>;

    expect(await report([{ token: key.value }])).toMatchObject({ status: 503, json: { error: { code: "signing_keys_unavailable" } } });
    expect(
      (
        await eventually(
          () => list.served,
          (served) => served.hungUp,
        )
      ).hungUp,
    ).toBe(true);
    expect(list.served.bytes).toBeLessThan(list.total / 2);
    const reasons = logged.mock.calls.map(([fields]) => String(fields.err.message));
    expect(reasons).toContainEqual(expect.stringContaining(`larger than ${SECRET_SCANNING_KEYS_MAX_BYTES.toLocaleString("en-US")} bytes`));
  });
});

describe("a key list that fails", () => {
  it("is not fetched again for the reports of its back-off, which doubles while it fails and ends when it answers", async () => {
    const key = await liveKey();
    const list = { fetches: 0, down: true };
    process.env.SECRET_SCANNING_KEYS_URL = answerAt("/failing", (_request, response) => {
      list.fetches++;
      if (!list.down) return serveKeyList(response);
      response.writeHead(502);
      response.end("Bad gateway");
    });
    vi.spyOn(log, "error").mockImplementation(() => {});
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const unavailable = { status: 503, json: { error: { code: "signing_keys_unavailable" } } };

    for (let attempt = 0; attempt < 5; attempt++) expect(await report([{ token: key.value }])).toMatchObject(unavailable);
    expect(await Promise.all(Array.from({ length: 5 }, () => report([{ token: key.value }])))).toMatchObject(Array(5).fill(unavailable));
    expect(list.fetches).toBe(1);

    // The first back-off (seconds) has passed: the next report fetches again; failing, it waits twice as long.
    vi.setSystemTime(start + 6_000);
    expect(await report([{ token: key.value }])).toMatchObject(unavailable);
    expect(list.fetches).toBe(2);
    vi.setSystemTime(start + 12_000);
    expect(await report([{ token: key.value }])).toMatchObject(unavailable);
    expect(list.fetches).toBe(2);

    list.down = false;
    vi.setSystemTime(start + 17_000);
    expect(await report([{ token: key.value }])).toMatchObject({ status: 200, json: [{ label: "true_positive" }] });
    expect(list.fetches).toBe(3);
    expect((await report([{ token: key.value }])).status).toBe(200);
    expect(list.fetches).toBe(3);
  });
});

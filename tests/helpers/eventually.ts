/** Reads until `done` holds or `timeoutMs` passes; returns the last value read, for the test to assert on. */
export async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls `condition` until it holds (true) or `timeoutMs` passes (false). */
export async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (await condition()) return true;
  }
  return false;
}

/** Polls `read` until its value has not changed for `quietMs` (true), or `timeoutMs` passes (false). */
export async function quiet(read: () => number, quietMs: number, timeoutMs: number): Promise<boolean> {
  let [value, since] = [read(), Date.now()];
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (read() !== value) [value, since] = [read(), Date.now()];
    else if (Date.now() - since >= quietMs) return true;
  }
  return false;
}

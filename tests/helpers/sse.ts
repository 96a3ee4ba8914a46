/** One server-sent event as the browser's EventSource would see it. */
export interface SseEvent {
  id?: string;
  event: string;
  data?: string;
  retry?: string;
}

/**
 * Reads server-sent events from a response body, field by field as the SSE spec parses them
 * (comments dropped, an id-only block kept: it moves Last-Event-ID, a retry-only one skipped: it
 * dispatches nothing). `next()` waits for the next block, or null when the stream ended or
 * `timeoutMs` passed; `ended` tells the two apart. `opening()` is the first block, a retry-only one
 * included: what a stream accepted (`retry:`) or refused (an `end` event) sends at once.
 */
export function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let ended = false;
  // A read outlives the wait that timed out: the next wait takes its chunk.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  const parse = (block: string): { event: SseEvent; dispatched: boolean } | null => {
    const event: SseEvent = { event: "message" };
    let fields = 0;
    for (const line of block.split("\n")) {
      if (line.startsWith(":") || line === "") continue;
      const colon = line.indexOf(":");
      const [name, value] = colon < 0 ? [line, ""] : [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, "")];
      if (name === "id") event.id = value;
      else if (name === "event") event.event = value;
      else if (name === "data") event.data = event.data === undefined ? value : `${event.data}\n${value}`;
      else if (name === "retry") {
        event.retry = value;
        continue;
      } else continue;
      fields++;
    }
    return fields > 0 || event.retry !== undefined ? { event, dispatched: fields > 0 } : null;
  };
  let blocksRead = 0;
  const nextBlock = async (timeoutMs: number, dispatchOnly: boolean): Promise<SseEvent | null> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const parsed = parse(block);
        if (parsed) blocksRead++;
        if (parsed && (parsed.dispatched || !dispatchOnly)) return parsed.event;
        continue;
      }
      if (ended) return null;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      pending ??= reader.read();
      const read = await Promise.race([pending, new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), left)))]);
      clearTimeout(timer);
      if (read === "timeout") return null;
      pending = null;
      if (read.done) ended = true;
      else buffer += decoder.decode(read.value, { stream: true });
    }
  };
  return {
    next: (timeoutMs = 5000) => nextBlock(timeoutMs, true),
    async opening(timeoutMs = 5000): Promise<SseEvent | null> {
      if (blocksRead > 0) throw new Error("opening() reads a stream's first block, and this one has been read from already.");
      return nextBlock(timeoutMs, false);
    },
    /** Whether the server closed the stream (and every block before the close was read). */
    get ended() {
      return ended && buffer.indexOf("\n\n") < 0;
    },
    cancel: () => reader.cancel(),
  };
}

/** One server-sent event as the browser's EventSource would see it. */
export interface SseEvent {
  id?: string;
  event: string;
  data?: string;
}

/**
 * Reads server-sent events from a response body, field by field as the SSE spec parses them
 * (comments dropped, an id-only block kept: it moves Last-Event-ID). `next()` waits for the next
 * block, or null when the stream ended or `timeoutMs` passed.
 */
export function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let ended = false;
  // A read outlives the wait that timed out: the next wait takes its chunk.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  const parse = (block: string): SseEvent | null => {
    const event: SseEvent = { event: "message" };
    let fields = 0;
    for (const line of block.split("\n")) {
      if (line.startsWith(":") || line === "") continue;
      const colon = line.indexOf(":");
      const [name, value] = colon < 0 ? [line, ""] : [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, "")];
      if (name === "id") event.id = value;
      else if (name === "event") event.event = value;
      else if (name === "data") event.data = event.data === undefined ? value : `${event.data}\n${value}`;
      else continue;
      fields++;
    }
    return fields > 0 ? event : null;
  };
  return {
    async next(timeoutMs = 5000): Promise<SseEvent | null> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = parse(block);
          if (event) return event;
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
    },
    cancel: () => reader.cancel(),
  };
}

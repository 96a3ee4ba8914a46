/**
 * The first bytes of a stream: at least `maxBytes` of them (all the chunks read until there were
 * that many), or all of it when it is shorter (`complete`). The rest stays unread.
 */
export async function readPrefix(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ bytes: Uint8Array<ArrayBuffer>; complete: boolean }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  try {
    while (size < maxBytes) {
      const read = await reader.read();
      if (read.done) {
        complete = true;
        break;
      }
      chunks.push(read.value);
      size += read.value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, complete };
}

/** The whole of a stream, or null once it has passed `maxBytes`; the rest stays unread (the caller may cancel it). */
export async function readAtMost(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const { bytes } = await readPrefix(stream, maxBytes + 1);
  return bytes.byteLength > maxBytes ? null : bytes;
}

import { CAPTURED_BODY_BYTES, isCutBody } from "@/lib/api/request-capture";

const KIB = 1024;

function formatBytes(bytes: number): string {
  return bytes < KIB ? `${bytes} bytes` : `${(bytes / KIB).toFixed(1)} KB`;
}

/**
 * What a body's card says of its size: the whole body's as it was sent, and, only when its first
 * 8 KB alone were kept, that it was cut. What is shown can be shorter or longer than the body
 * without a cut: credentials are replaced by "[redacted]".
 */
export function bodySize(bytes: number | null): { cut: boolean; label: string } {
  if (bytes !== null && !isCutBody(bytes)) return { cut: false, label: formatBytes(bytes) };
  return { cut: true, label: `Cut at ${CAPTURED_BODY_BYTES / KIB} KB of ${bytes === null ? "a longer body" : formatBytes(bytes)}.` };
}

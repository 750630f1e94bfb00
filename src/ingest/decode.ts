/**
 * Bytes to text for every transport: strict UTF-8, so that invalid bytes are refused rather than
 * stored as U+FFFD (which would alter names without a word). A leading byte-order mark is dropped
 * (it is not part of the JSON text).
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The text of UTF-8 bytes, or null when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

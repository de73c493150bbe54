/**
 * The lines of a text file as users number them: a byte-order mark is dropped, CRLF and LF both end a
 * line, and the newline that ends the last line does not start an extra empty one.
 */
export function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Drops a byte-order mark. */
export const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Deepest nesting the JSON and XML readers accept: puzzles nest a few levels, and the readers must not overflow the stack. */
export const MAX_NESTING = 64;
export const NESTING_MESSAGE = `nesting deeper than ${MAX_NESTING} levels`;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const UTF16LE = new TextDecoder('utf-16le');
// WHATWG's "latin1" is Windows-1252: Latin-1 for every printable character, and letters rather than C1 controls in 0x80–0x9F.
const LATIN1 = new TextDecoder('latin1');

/**
 * The text of a file's bytes, or undefined for binary data (a NUL character). UTF-16 is recognised by its
 * byte-order mark; anything else is UTF-8, or Latin-1 when it is not valid UTF-8 (older `.non` files).
 * A lone CR (old Mac line ends) becomes a line break, so every reader sees the lines a user sees.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = UTF16LE.decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const body = bytes.subarray(2, bytes.length - (bytes.length % 2));
    text = UTF16LE.decode(body.map((_b, k) => body[k ^ 1]!));
  } else {
    try {
      text = UTF8.decode(bytes);
    } catch {
      text = LATIN1.decode(bytes);
    }
  }
  if (text.includes('\0')) return undefined;
  return text.replace(/\r(?!\n)/g, '\n');
}

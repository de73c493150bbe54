import { checkLineCount } from '../heap-guard.js';

/**
 * The lines of a text file as users number them: a byte-order mark is dropped, CRLF and LF both end a
 * line, and the newline that ends the last line does not start an extra empty one. A text of more
 * lines than memory holds is refused (checkLineCount).
 */
export function splitLines(text: string, file: string): string[] {
  checkLineCount(text, file);
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
// Node's TextDecoder reads the labels `latin1` and `windows-1252` as ISO-8859-1, which gives C1 control characters for
// 0x80–0x9F: the Windows-1252 punctuation there (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ) is mapped below.
const LATIN1 = new TextDecoder('latin1');

/**
 * WHATWG's windows-1252 table for bytes 0x80–0x9F; the five bytes it leaves undefined (0x81, 0x8D, 0x8F,
 * 0x90, 0x9D) map to the same code points, as WHATWG and Windows do.
 */
export const WINDOWS_1252_HIGH = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
  0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
] as const;

/** Bytes as Windows-1252: Latin-1, but for the punctuation and letters of 0x80–0x9F. */
export function decodeWindows1252(bytes: Uint8Array): string {
  return LATIN1.decode(bytes).replace(/[\u0080-\u009f]/g, (c) => String.fromCharCode(WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!));
}

/**
 * The text of bytes, as they come: UTF-16 when they start with its byte-order mark (which is dropped), else
 * UTF-8 (a UTF-8 byte-order mark is kept), else Windows-1252 when they are not valid UTF-8 (older `.non` files).
 */
export function decodeBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return UTF16LE.decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const body = bytes.subarray(2, bytes.length - (bytes.length % 2));
    return UTF16LE.decode(body.map((_b, k) => body[k ^ 1]!));
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

/**
 * The text of a file's bytes (decodeBytes), or undefined for binary data (a NUL character).
 * A lone CR (old Mac line ends) becomes a line break, so every reader sees the lines a user sees.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  const text = decodeBytes(bytes);
  if (text.includes('\0')) return undefined;
  return text.replace(/\r(?!\n)/g, '\n');
}

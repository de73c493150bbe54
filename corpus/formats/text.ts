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

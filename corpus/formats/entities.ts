/**
 * Character references shared by the XML reader and `.non` strings (which "may have HTML escape codes").
 * Beyond XML's five, a few HTML names that puzzle files use in copyright lines are understood;
 * anything unknown is kept as written rather than rejected.
 */
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  copy: '©',
  reg: '®',
  trade: '™',
  nbsp: '\u00a0',
  mdash: '—',
  ndash: '–',
  hellip: '…',
};

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name] ?? whole;
  });
}

/** Escapes a string for a double-quoted `.non` value: the quote itself, `&`, and line breaks. */
export function encodeNonString(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\r/g, '&#13;').replace(/\n/g, '&#10;');
}

/**
 * Character references shared by the XML reader and `.non` strings (which "may have HTML escape codes",
 * as in `Caf&eacute;`). Beyond XML's five, HTML 4's names for Latin-1 (U+00A0 … U+00FF, in code order)
 * and for common punctuation are understood; anything unknown is kept as written rather than rejected.
 */
const LATIN1_NAMES =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot ' +
  'cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml ' +
  'Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig ' +
  'agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ' +
  'ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  OElig: 'Œ',
  oelig: 'œ',
  Scaron: 'Š',
  scaron: 'š',
  Yuml: 'Ÿ',
  fnof: 'ƒ',
  circ: 'ˆ',
  tilde: '˜',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  dagger: '†',
  Dagger: '‡',
  bull: '•',
  hellip: '…',
  permil: '‰',
  prime: '′',
  Prime: '″',
  lsaquo: '‹',
  rsaquo: '›',
  euro: '€',
  trade: '™',
};
LATIN1_NAMES.split(' ').forEach((name, i) => (NAMED[name] = String.fromCharCode(0xa0 + i)));

/** The named references understood, by name (XML's five and HTML 4's Latin-1 and punctuation names). */
export const NAMED_ENTITIES: Readonly<Record<string, string>> = NAMED;

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    // Own names only: `&constructor;` must not find what every object inherits.
    return Object.hasOwn(NAMED, name) ? NAMED[name]! : whole;
  });
}

/** Escapes a string for a double-quoted `.non` value: the quote itself, `&`, control characters and line breaks (U+2028 and U+2029 too). */
export function encodeNonString(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `&#${c.charCodeAt(0)};`);
}

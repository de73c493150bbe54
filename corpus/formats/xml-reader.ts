import { clip, PuzzleError } from '../errors.js';
import { decodeEntities } from './entities.js';
import { MAX_NESTING, NESTING_MESSAGE, withoutBom } from './text.js';

/**
 * A small, tolerant XML reader: enough for puzzle files (elements, attributes, text, entities, comments,
 * CDATA, the XML declaration and a DOCTYPE, which is skipped) with the line of every element, so errors can
 * point into the file. Not validating; namespaces are kept as part of names.
 */

export interface XmlText {
  kind: 'text';
  text: string;
  line: number;
}

export interface XmlElement {
  kind: 'element';
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  line: number;
}

export type XmlNode = XmlElement | XmlText;

const NAME = /[A-Za-z_:][A-Za-z0-9_.:-]*/y;

export function readXml(source: string, file: string): XmlElement {
  const text = withoutBom(source);
  let pos = 0;
  let line = 1;
  const fail = (detail: string, at = line): never => {
    throw new PuzzleError(file, at, `invalid XML: ${detail}`);
  };
  /** Moves to `to`, counting the line breaks passed. */
  const advance = (to: number) => {
    for (let i = pos; i < to; i++) if (text.charCodeAt(i) === 10) line++;
    pos = to;
  };
  const skipTo = (marker: string, what: string) => {
    const end = text.indexOf(marker, pos);
    if (end < 0) fail(`unclosed ${what}`);
    advance(end + marker.length);
  };
  const skipSpace = () => {
    let i = pos;
    while (i < text.length && /\s/.test(text[i]!)) i++;
    advance(i);
  };
  const readName = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(text);
    if (!m) return fail(`expected a name at "${text.slice(pos, pos + 10)}"`);
    advance(pos + m[0].length);
    return m[0];
  };

  const documentNode: XmlElement = { kind: 'element', name: '#document', attrs: {}, children: [], line: 1 };
  const stack: XmlElement[] = [documentNode];
  const top = () => stack[stack.length - 1]!;

  while (pos < text.length) {
    if (text.startsWith('<!--', pos)) skipTo('-->', 'comment');
    else if (text.startsWith('<?', pos)) skipTo('?>', 'processing instruction');
    else if (text.startsWith('<![CDATA[', pos)) {
      const start = line;
      const end = text.indexOf(']]>', pos);
      if (end < 0) fail('unclosed CDATA section');
      top().children.push({ kind: 'text', text: text.slice(pos + 9, end), line: start });
      advance(end + 3);
    } else if (text.startsWith('<!', pos)) skipDoctype();
    else if (text.startsWith('</', pos)) {
      const at = line;
      advance(pos + 2);
      const name = readName();
      skipSpace();
      if (text[pos] !== '>') fail(`expected ">" to end </${clip(name)}>`);
      advance(pos + 1);
      const open = top();
      if (stack.length === 1) fail(`closing tag </${clip(name)}> without an opening tag`, at);
      if (open.name !== name) fail(`closing tag </${clip(name)}> does not match <${clip(open.name)}> opened on line ${open.line}`, at);
      stack.pop();
    } else if (text[pos] === '<') {
      // textOf and the puzzle readers recurse into elements: a limit keeps a hostile file from overflowing the stack.
      if (stack.length > MAX_NESTING) throw new PuzzleError(file, line, NESTING_MESSAGE);
      const el: XmlElement = { kind: 'element', name: '', attrs: {}, children: [], line };
      advance(pos + 1);
      el.name = readName();
      let selfClosing = false;
      for (;;) {
        skipSpace();
        if (pos >= text.length) fail(`unclosed tag <${clip(el.name)}>`, el.line);
        if (text.startsWith('/>', pos)) {
          advance(pos + 2);
          selfClosing = true;
          break;
        }
        if (text[pos] === '>') {
          advance(pos + 1);
          break;
        }
        const attr = readName();
        skipSpace();
        let value = '';
        if (text[pos] === '=') {
          advance(pos + 1);
          skipSpace();
          const quote = text[pos];
          if (quote === '"' || quote === "'") {
            const end = text.indexOf(quote, pos + 1);
            if (end < 0) fail(`unclosed attribute value of ${clip(attr)}`);
            value = text.slice(pos + 1, end);
            advance(end + 1);
          } else {
            // Tolerate unquoted values.
            let end = pos;
            while (end < text.length && !/[\s>]/.test(text[end]!) && !text.startsWith('/>', end)) end++;
            value = text.slice(pos, end);
            advance(end);
          }
        }
        el.attrs[attr] = decodeEntities(value);
      }
      top().children.push(el);
      if (!selfClosing) stack.push(el);
    } else {
      const start = line;
      let end = text.indexOf('<', pos);
      if (end < 0) end = text.length;
      const raw = text.slice(pos, end);
      if (stack.length > 1) top().children.push({ kind: 'text', text: decodeEntities(raw), line: start });
      else if (raw.trim() !== '') fail('text outside the root element', start);
      advance(end);
    }
  }
  if (stack.length > 1) fail(`unclosed element <${clip(top().name)}> opened on line ${top().line}`, top().line);
  const roots = documentNode.children.filter((c): c is XmlElement => c.kind === 'element');
  if (roots.length !== 1) fail(roots.length ? 'more than one root element' : 'no root element', roots[1]?.line ?? line);
  return roots[0]!;

  /** `<!DOCTYPE …>` possibly with an internal subset in brackets and quoted strings. */
  function skipDoctype(): void {
    let depth = 0;
    let quote = '';
    for (let i = pos + 2; i < text.length; i++) {
      const ch = text[i]!;
      if (quote) {
        if (ch === quote) quote = '';
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '[') depth++;
      else if (ch === ']') depth--;
      else if (ch === '>' && depth <= 0) {
        advance(i + 1);
        return;
      }
    }
    fail('unclosed <! declaration');
  }
}

export const childElements = (el: XmlElement, name?: string): XmlElement[] =>
  el.children.filter((c): c is XmlElement => c.kind === 'element' && (name === undefined || c.name === name));

export const firstChild = (el: XmlElement, name: string): XmlElement | undefined => childElements(el, name)[0];

/** All text inside an element (descendants included), as written. */
export function textOf(el: XmlElement): string {
  return el.children.map((c) => (c.kind === 'text' ? c.text : textOf(c))).join('');
}

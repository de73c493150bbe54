import { SaxesParser } from 'saxes';
import { clip, InputError } from '../errors.js';
import { checkHeap } from '../heap-guard.js';
import { NAMED_ENTITIES } from './entities.js';
import { MAX_NESTING, NESTING_MESSAGE, withoutBom } from './text.js';

/** The XML of puzzle files as a tree of elements and text, each with its line, so errors can point into the file. */

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

/** Lines a text holds beyond its first. */
const breaks = (text: string) => {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/**
 * Reads an XML text into elements with their lines, through `saxes`: well-formedness is checked,
 * a DOCTYPE is skipped, and entities are never expanded from it (no external entities, no entity
 * bombs): a reference is XML's five, a character reference or one of HTML 4's names, or an error.
 */
export function readXml(source: string, file: string): XmlElement {
  const text = withoutBom(source);
  const parser = new SaxesParser({ position: true });
  Object.assign(parser.ENTITIES, NAMED_ENTITIES);
  const documentNode: XmlElement = { kind: 'element', name: '#document', attrs: {}, children: [], line: 1 };
  const stack: XmlElement[] = [documentNode];
  const top = () => stack[stack.length - 1]!;
  let tagLine = 1;
  const addText = (content: string) => {
    // saxes reports text once it ends: its first line is that many breaks earlier.
    if (stack.length > 1) top().children.push({ kind: 'text', text: content, line: parser.line - breaks(content) });
  };
  parser.on('error', (err) => {
    const message = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    const open = top();
    const fail = (detail: string, line = parser.line) => {
      throw new InputError(file, line, `invalid XML: ${detail}`);
    };
    // saxes's messages, made to name what they are about.
    // On a mismatched closing tag saxes has just closed the element it failed to match.
    if (message === 'unexpected close tag' && lastClosed) fail(`closing tag does not match <${clip(lastClosed.name)}> opened on line ${lastClosed.line}`);
    if (message.startsWith('unclosed tag') && stack.length > 1) fail(`unclosed element <${clip(open.name)}> opened on line ${open.line}`, open.line);
    if (message === 'undefined entity') {
      const name = /&([^&;\s<]*);?$/.exec(text.slice(Math.max(0, parser.position - 80), parser.position))?.[1];
      fail(`undefined entity${name ? ` &${clip(name)};` : ''} (entities a DOCTYPE declares are not expanded)`);
    }
    // Other messages may quote input (`duplicate attribute: NAME`, a name of any length): cut it, as every quote is.
    const colon = message.indexOf(': ');
    fail(colon < 0 ? clip(message) : `${message.slice(0, colon + 2)}${clip(message.slice(colon + 2))}`);
  });
  parser.on('opentagstart', () => {
    tagLine = parser.line;
    // textOf and the puzzle readers recurse into elements: a limit keeps a hostile file from overflowing the stack.
    if (stack.length > MAX_NESTING) throw new InputError(file, tagLine, NESTING_MESSAGE);
    // Every element is kept: a file of millions of them (one clue of millions of <count>s) must end with one line, not V8's out-of-memory abort.
    checkHeap(file, tagLine);
  });
  parser.on('opentag', (tag) => {
    const el: XmlElement = { kind: 'element', name: tag.name, attrs: { ...(tag.attributes as Record<string, string>) }, children: [], line: tagLine };
    top().children.push(el);
    if (!tag.isSelfClosing) stack.push(el);
  });
  let lastClosed: XmlElement | undefined;
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) lastClosed = stack.pop();
  });
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.write(text).close();
  const roots = documentNode.children.filter((c): c is XmlElement => c.kind === 'element');
  if (roots.length !== 1) throw new InputError(file, parser.line, `invalid XML: ${roots.length ? 'more than one root element' : 'no root element'}`);
  return roots[0]!;
}

export const childElements = (el: XmlElement, name?: string): XmlElement[] =>
  el.children.filter((c): c is XmlElement => c.kind === 'element' && (name === undefined || c.name === name));

export const firstChild = (el: XmlElement, name: string): XmlElement | undefined => childElements(el, name)[0];

/** All text inside an element (descendants included), as written. */
export function textOf(el: XmlElement): string {
  return el.children.map((c) => (c.kind === 'text' ? c.text : textOf(c))).join('');
}

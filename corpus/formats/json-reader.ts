import { InputError } from '../errors.js';
import { checkHeap } from '../heap-guard.js';
import { MAX_NESTING, NESTING_MESSAGE, withoutBom } from './text.js';

/**
 * A JSON reader that remembers the line of every value (JSON.parse forgets them), so a bad clue in a
 * JSON puzzle is reported at its line like in any other format. Numbers keep their written text, so
 * `2.5` or `1e3` can be named exactly in messages.
 */

export type JsonNode =
  | { kind: 'object'; line: number; entries: { key: string; keyLine: number; value: JsonNode }[] }
  | { kind: 'array'; line: number; items: JsonNode[] }
  | { kind: 'string'; line: number; value: string }
  | { kind: 'number'; line: number; text: string }
  | { kind: 'literal'; line: number; value: boolean | null };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** The characters a string holds as they are: all but its closing quote, an escape and a line break. */
const PLAIN = /[^"\\\n]*/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function readJson(source: string, file: string): JsonNode {
  const text = withoutBom(source);
  let pos = 0;
  let line = 1;
  const fail = (detail: string): never => {
    throw new InputError(file, line, `invalid JSON: ${detail}`);
  };
  const near = () => (pos < text.length ? `\`${text.slice(pos, pos + 12).split('\n')[0]}\`` : 'the end of the file');
  const skipSpace = () => {
    while (pos < text.length) {
      const ch = text[pos];
      if (ch === '\n') line++;
      else if (ch !== ' ' && ch !== '\t' && ch !== '\r') break;
      pos++;
    }
  };
  const expect = (ch: string) => {
    skipSpace();
    if (text[pos] !== ch) fail(`expected "${ch}" at ${near()}`);
    pos++;
  };

  const readString = (): string => {
    // pos is at the opening quote. Runs of plain characters are taken whole and the pieces joined at
    // the end: a string grown a character at a time is a rope of a node per character, and one
    // value of millions of characters would fill the heap.
    const parts: string[] = [];
    pos++;
    for (;;) {
      PLAIN.lastIndex = pos;
      const run = PLAIN.exec(text)![0];
      if (run !== '') {
        parts.push(run);
        pos += run.length;
      }
      if (pos >= text.length) fail('unclosed string');
      const ch = text[pos]!;
      if (ch === '"') {
        pos++;
        return parts.join('');
      }
      if (ch === '\n') fail('line break inside a string');
      if (ch === '\\') {
        const next = text[pos + 1] ?? '';
        if (next === 'u') {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(`bad escape "\\u${hex}"`);
          parts.push(String.fromCharCode(parseInt(hex, 16)));
          pos += 6;
        } else {
          const esc = ESCAPES[next];
          if (esc === undefined) fail(`bad escape "\\${next}"`);
          parts.push(esc);
          pos += 2;
        }
      }
    }
  };

  /** Reads the value at `pos`, inside `depth` arrays and objects. */
  const readValue = (depth: number): JsonNode => {
    skipSpace();
    const at = line;
    // Every value is a node: a file of millions of them (one clue of millions of numbers) must end with one line, not V8's out-of-memory abort.
    checkHeap(file, at);
    const ch = text[pos];
    // Recursion follows the nesting: a limit keeps a hostile file from overflowing the stack.
    if ((ch === '{' || ch === '[') && depth >= MAX_NESTING) throw new InputError(file, line, NESTING_MESSAGE);
    if (ch === '{') {
      pos++;
      const entries: { key: string; keyLine: number; value: JsonNode }[] = [];
      skipSpace();
      if (text[pos] === '}') {
        pos++;
        return { kind: 'object', line: at, entries };
      }
      for (;;) {
        skipSpace();
        if (text[pos] !== '"') fail(`expected a quoted key at ${near()}`);
        const keyLine = line;
        const key = readString();
        expect(':');
        entries.push({ key, keyLine, value: readValue(depth + 1) });
        skipSpace();
        if (text[pos] === ',') pos++;
        else if (text[pos] === '}') {
          pos++;
          return { kind: 'object', line: at, entries };
        } else fail(`expected "," or "}" at ${near()}`);
      }
    }
    if (ch === '[') {
      pos++;
      const items: JsonNode[] = [];
      skipSpace();
      if (text[pos] === ']') {
        pos++;
        return { kind: 'array', line: at, items };
      }
      for (;;) {
        items.push(readValue(depth + 1));
        skipSpace();
        if (text[pos] === ',') pos++;
        else if (text[pos] === ']') {
          pos++;
          return { kind: 'array', line: at, items };
        } else fail(`expected "," or "]" at ${near()}`);
      }
    }
    if (ch === '"') return { kind: 'string', line: at, value: readString() };
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return { kind: 'literal', line: at, value };
      }
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m) {
      pos += m[0].length;
      return { kind: 'number', line: at, text: m[0] };
    }
    return fail(`unexpected ${near()}`);
  };

  const value = readValue(0);
  skipSpace();
  if (pos < text.length) fail(`unexpected ${near()} after the value`);
  return value;
}

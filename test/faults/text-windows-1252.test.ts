import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBytes, decodeText } from '../../corpus/formats/text.js';
import { loadPuzzle } from '../../corpus/load.js';
import { readInput } from '../../harness/io/read-input.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { NUMBER_RULES } from '../../harness/results/row-values.js';
import { recordedTasks } from '../../harness/run/resume.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * Text that is not valid UTF-8 is read as Windows-1252 (README, "Puzzle formats"): the punctuation of
 * bytes 0x80–0x9F must come out as the characters Windows shows, not as C1 control characters.
 */

const newDir = tempDirs('cp1252');

/** Windows-1252's 0x80–0x9F, written out independently of the decoder's table (WHATWG: the five undefined bytes map to U+0081 etc.). */
const HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const UNDEFINED_BYTES = [0x81, 0x8d, 0x8f, 0x90, 0x9d];

/** A byte's character in Windows-1252. */
const charOf = (b: number) => (b >= 0x80 && b < 0xa0 ? HIGH[b - 0x80]! : String.fromCharCode(b));

/** Encodes text as Windows-1252 (every character must have a byte). */
function windows1252(text: string): Buffer {
  return Buffer.from(
    Array.from(text, (c) => {
      const high = HIGH.indexOf(c);
      if (high >= 0) return 0x80 + high;
      const code = c.charCodeAt(0);
      if (code > 0xff) throw new Error(`no Windows-1252 byte for ${c}`);
      return code;
    }),
  );
}

const isUtf8 = (bytes: Uint8Array) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

const CROSS = 'width 5\nheight 5\n\nrows\n1\n1\n5\n1\n1\n\ncolumns\n1\n1\n5\n1\n1\n';

describe('text that is not valid UTF-8', () => {
  it('reads Windows-1252 punctuation in a .non title as the characters Windows shows', () => {
    const title = '“Café” – 5 €';
    const bytes = windows1252(`title "${title}"\n${CROSS}`);
    expect(isUtf8(bytes)).toBe(false);
    const file = join(newDir(), 'old.non');
    writeFileSync(file, bytes);
    expect(loadPuzzle(file).meta.title).toBe(title);
  });

  it('maps every byte of 0x80–0x9F as the WHATWG windows-1252 table does', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_x, k) => 0x80 + k);
    expect(decodeText(bytes)).toBe(HIGH);
    expect([...HIGH].map((c) => c.codePointAt(0))).toEqual([
      0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
      0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
    ]);
  });

  it('decodes any byte string that is not UTF-8 to no C1 control but the five undefined bytes, byte for byte', () => {
    const allowed = new Set(UNDEFINED_BYTES.map((b) => String.fromCharCode(b)));
    fc.assert(
      fc.property(fc.uint8Array({ min: 1, maxLength: 64 }), (bytes) => {
        // Not UTF-8, and not UTF-16 either (its byte-order mark names it).
        fc.pre(!isUtf8(bytes) && !(bytes[0] === 0xff && bytes[1] === 0xfe) && !(bytes[0] === 0xfe && bytes[1] === 0xff));
        const text = decodeText(bytes)!;
        for (const c of text) if (/[\u0080-\u009f]/.test(c)) expect(allowed.has(c), `U+${c.charCodeAt(0).toString(16)}`).toBe(true);
        expect(text).toBe(Array.from(bytes, charOf).join('').replace(/\r(?!\n)/g, '\n'));
        expect(decodeBytes(bytes)).toBe(Array.from(bytes, charOf).join(''));
      }),
      { numRuns: 2000 },
    );
  });

  it('still reads valid UTF-8 as UTF-8, C1 controls included', () => {
    expect(decodeText(Buffer.from('“Café” – 5 € \u0085', 'utf8'))).toBe('“Café” – 5 € \u0085');
  });

  it('reads other text inputs (grids, models, run CSVs) the same way', () => {
    const file = join(newDir(), 'grid.txt');
    writeFileSync(file, windows1252('# “grid” –\n#.\n'));
    expect(readInput(file)).toBe('# “grid” –\n#.\n');
    writeFileSync(file, Buffer.from('“grid” é\n', 'utf8'));
    expect(readInput(file)).toBe('“grid” é\n');
  });

  it('refuses devices and binary data in those inputs too, and reads a lone CR as a line break', () => {
    // Reading /dev/zero as a grid, a model or a definition never ended.
    expect(() => readInput('/dev/zero')).toThrow('/dev/zero:0: cannot read the file (not a regular file or pipe)');
    const file = join(newDir(), 'grid.txt');
    writeFileSync(file, '#.#\n#\0.\n');
    expect(() => readInput(file)).toThrow(`${file}:1: not a text file (binary data)`);
    writeFileSync(file, '#.#\r##.\r\n.##');
    expect(readInput(file)).toBe('#.#\n##.\r\n.##');
  });

  it('--resume refuses a run CSV that is not UTF-8, leaving it as it was, since rows appended as UTF-8 would read back as garbage', () => {
    const row = RUN_COLUMNS.map((c) => (c === 'title' ? 'Café “x”' : c === 'status' ? 'unique' : c in NUMBER_RULES ? '1' : 'v'));
    const text = `${RUN_COLUMNS.join(',')}\n${row.join(',')}\n`;
    const dir = newDir();
    const files: [string, Buffer, string][] = [
      [join(dir, 'utf16.csv'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'UTF-16LE'],
      [join(dir, 'cp1252.csv'), windows1252(text), 'WINDOWS-1252'],
    ];
    for (const [file, bytes, encoding] of files) {
      writeFileSync(file, bytes);
      expect(() => recordedTasks(file)).toThrow(`${file}:1: cannot resume: the file is ${encoding}`);
      expect(readFileSync(file).equals(bytes)).toBe(true);
    }
    const utf8 = join(dir, 'utf8.csv');
    writeFileSync(utf8, text);
    expect(recordedTasks(utf8).tasks.size).toBe(1);
  });
});

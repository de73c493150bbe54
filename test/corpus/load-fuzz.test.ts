import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyGrid } from '../../corpus/grid.js';
import { loadCorpus } from '../../corpus/load.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * Damaged puzzle files of every format: the loader must never throw, and must answer each file with
 * puzzles that are sound or with one-line errors that name the file and a line.
 */
const SAMPLES = ['sample.non', 'sample.nonpack', 'sample.json', 'bundle.json', 'sample.xml', 'tiny-questions.txt'].map(
  (name) => ({ name, text: readFileSync(join('test/fixtures/formats', name), 'utf8') }),
);

const TOKENS = ['', '0', '-1', '1.5', 'x', '3a', '99999', '1,,2', ',', ' ', 'width', 'rows', 'columns', 'goal', '"', '#', '<', '>', '{', '}', '[', ']', '\t', '\u00a0', '2 0 1'];

type Edit = { kind: 'drop' | 'dup' | 'token' | 'cut' | 'char'; line: number; column: number; token: string };

const edit = fc.record({
  kind: fc.constantFrom<Edit['kind']>('drop', 'dup', 'token', 'token', 'token', 'cut', 'char'),
  line: fc.nat(400),
  column: fc.nat(80),
  token: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: 'binary', maxLength: 3 })),
});

function damage(text: string, edits: Edit[]): string {
  const lines = text.split('\n');
  for (const e of edits) {
    if (lines.length === 0) break;
    const i = e.line % lines.length;
    const line = lines[i]!;
    if (e.kind === 'drop') lines.splice(i, 1);
    else if (e.kind === 'dup') lines.splice(i, 0, line);
    else if (e.kind === 'cut') lines[i] = line.slice(0, e.column % (line.length + 1));
    else if (e.kind === 'char') lines[i] = line.slice(0, e.column % (line.length + 1)) + e.token.slice(0, 1) + line.slice((e.column % (line.length + 1)) + 1);
    else {
      const at = e.column % (line.length + 1);
      lines[i] = line.slice(0, at) + e.token + line.slice(at + (e.token === '' ? 1 : 0));
    }
  }
  return lines.join('\n');
}

describe('loading damaged files', () => {
  const dir = tempDirs('fuzz')();
  let n = 0;

  it('never throws; every puzzle kept is sound and every error is one line naming the file and a line', () => {
    fc.assert(
      fc.property(fc.nat(SAMPLES.length - 1), fc.array(edit, { minLength: 1, maxLength: 6 }), (which, edits) => {
        const sample = SAMPLES[which]!;
        const file = join(dir, `${n++}-${sample.name}`);
        writeFileSync(file, damage(sample.text, edits));
        const { puzzles, errors } = loadCorpus([file]);
        for (const e of errors) {
          expect(e.message).toMatch(/^[^\n]+:\d+: [^\n]+$/);
          expect(e.message.startsWith(`${e.file}:${e.line}: `)).toBe(true);
          expect(e.file.endsWith(sample.name)).toBe(true);
        }
        for (const p of puzzles) {
          expect(p.width).toBeGreaterThan(0);
          expect(p.height).toBeGreaterThan(0);
          expect(p.rows).toHaveLength(p.height);
          expect(p.columns).toHaveLength(p.width);
          for (const clue of [...p.rows, ...p.columns]) for (const b of clue) expect(Number.isInteger(b) && b > 0).toBe(true);
          if (p.goal) expect(verifyGrid(p, p.goal)).toEqual([]);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

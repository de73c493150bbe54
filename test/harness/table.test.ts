import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTable } from '../../harness/io/table.js';

/** The table format by definition: first column left-aligned, others right-aligned, two spaces apart, a dashed rule. */
function reference(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

const cell = fc.stringMatching(/^[!-~]([ -~]{0,10}[!-~])?$/);

describe('formatTable', () => {
  it('lays out any table of plain cells as defined, empty ones and an empty body included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((n) =>
          fc.tuple(fc.array(cell, { minLength: n, maxLength: n }), fc.array(fc.array(fc.oneof(cell, fc.constant('')), { minLength: n, maxLength: n }), { maxLength: 6 })),
        ),
        ([header, body]) => {
          expect(formatTable(header, body)).toBe(reference(header, body));
        },
      ),
    );
  });

  it('escapes control characters in cells and header: a line break or terminal escape cannot split a row or drive the terminal', () => {
    const text = formatTable(['name\x1b[1m', 'n'], [['a\nb\rc', '\x1b[2J'], ['\x9b31m', '\u2028']]);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028]/);
    expect(text).toBe(reference(['name\\x1b[1m', 'n'], [['a\\nb\\rc', '\\x1b[2J'], ['\\x9b31m', '\\u2028']]));
  });

  it('measures wide characters as the terminal shows them', () => {
    const lines = formatTable(['title', 'n'], [['日本', '1'], ['ab', '22']]).split('\n');
    expect(lines[2]).toBe('日本    1');
    expect(lines[3]).toBe('ab     22');
  });
});

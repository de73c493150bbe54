import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY, FILLED, UNKNOWN, makePuzzle } from '../../corpus/model.js';
import { escapeXml, renderSvg, renderTerminal } from '../../corpus/render.js';

const gridArb = fc
  .record({ width: fc.integer({ min: 1, max: 12 }), height: fc.integer({ min: 1, max: 12 }) })
  .chain(({ width, height }) =>
    fc
      .record({
        cells: fc.array(fc.constantFrom(UNKNOWN, FILLED, EMPTY), { minLength: width * height, maxLength: width * height }),
        marks: fc.array(fc.boolean(), { minLength: width * height, maxLength: width * height }),
      })
      .map(({ cells, marks }) => ({ width, height, grid: Uint8Array.from(cells), mark: Uint8Array.from(marks, Number) })),
  );

const GLYPH: Record<string, number> = { '█': FILLED, '·': EMPTY, '░': UNKNOWN };

/** Parses a colourless terminal picture back into cell codes (two characters per cell). */
function parseTerminal(text: string, width: number): number[][] {
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => {
      const chars = Array.from(line);
      expect(chars).toHaveLength(2 * width);
      return Array.from({ length: width }, (_, x) => {
        expect(chars[2 * x]).toBe(chars[2 * x + 1]);
        return GLYPH[chars[2 * x]!] ?? -1;
      });
    });
}

/** Checks that every tag is closed in order and that there is exactly one root element, an svg. */
function expectWellFormed(svg: string) {
  const stack: string[] = [];
  let roots = 0;
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*?)(\/?)>/g)) {
    const [, closing, name, , selfClosing] = m;
    if (closing) expect(stack.pop()).toBe(name);
    else {
      if (stack.length === 0) roots++;
      if (!selfClosing) stack.push(name!);
    }
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
  expect(svg.trimStart().startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  // No bare ampersand: every & starts an entity.
  expect(svg.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toContain('&');
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('renderTerminal', () => {
  it('draws one line per row and two characters per cell, without ANSI codes when colour is off', () => {
    fc.assert(
      fc.property(gridArb, ({ width, height, grid }) => {
        const text = renderTerminal(grid, width);
        expect(text).not.toContain('\x1b');
        const rows = parseTerminal(text, width);
        expect(rows).toHaveLength(height);
        expect(rows.flat()).toEqual(Array.from(grid));
      }),
      { numRuns: 100 },
    );
  });

  it('shows marked cells as ×× (or ▓▓ when filled) without colour, and in red with colour', () => {
    fc.assert(
      fc.property(gridArb, ({ width, height, grid, mark }) => {
        const lines = renderTerminal(grid, width, { mark }).split('\n');
        for (let y = 0; y < height; y++) {
          const chars = Array.from(lines[y]!);
          for (let x = 0; x < width; x++) {
            const i = y * width + x;
            const expected = mark[i] ? (grid[i] === FILLED ? '▓' : '×') : ({ [FILLED]: '█', [EMPTY]: '·', [UNKNOWN]: '░' } as Record<number, string>)[grid[i]!];
            expect(chars[2 * x]).toBe(expected);
          }
        }
        const coloured = renderTerminal(grid, width, { mark, color: true });
        expect(count(coloured, '\x1b[31m')).toBe(mark.reduce((a, b) => a + b, 0));
        // Without the escape codes the coloured picture is the plain one (marks shown by colour only).
        expect(coloured.replace(/\x1b\[[0-9;]*m/g, '')).toBe(renderTerminal(grid, width));
      }),
      { numRuns: 60 },
    );
  });

  it('puts the row clues on the left and the column clues on top', () => {
    const p = makePuzzle([[2], [1, 1], []], [[1, 1], [1], [1], []]);
    const grid = Uint8Array.from([1, 1, 2, 2, 1, 2, 1, 2, 2, 2, 2, 2]);
    const lines = renderTerminal(grid, 4, { clues: p }).split('\n').slice(0, -1);
    // Two lines of column clues (column 1 has two blocks), then three rows.
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('     1');
    expect(lines[1]).toBe('     1 1 1 0');
    expect(lines[2]).toBe('  2 ████····');
    expect(lines[3]).toBe('1 1 ██··██··');
    expect(lines[4]).toBe('  0 ········');
  });

  it('widens the cells when a column clue has three digits', () => {
    const p = makePuzzle(Array.from({ length: 100 }, () => [1]), [[100]]);
    const lines = renderTerminal(new Uint8Array(100).fill(FILLED), 1, { clues: p }).split('\n');
    expect(lines[0]).toBe('  100');
    expect(lines[1]).toBe('1 ███');
  });
});

describe('renderSvg', () => {
  it('is a well-formed standalone SVG with one rect per cell of the right kind and one outline per mark', () => {
    fc.assert(
      fc.property(gridArb, fc.boolean(), ({ width, height, grid, mark }, withPuzzle) => {
        const p = makePuzzle(
          Array.from({ length: height }, (_, y) => [y + 1]),
          Array.from({ length: width }, (_, x) => [x % 3, 2].filter(Boolean)),
          { title: 'A <b>&"\'title' },
        );
        const svg = renderSvg(grid, width, height, { mark, ...(withPuzzle ? { puzzle: p } : {}) });
        expectWellFormed(svg);
        const of = (v: number) => grid.filter((c) => c === v).length;
        expect(count(svg, 'class="filled"')).toBe(of(FILLED));
        expect(count(svg, 'class="empty"')).toBe(of(EMPTY));
        expect(count(svg, 'class="unknown"')).toBe(of(UNKNOWN));
        expect(count(svg, 'class="mark"')).toBe(mark.reduce((a, b) => a + b, 0));
        expect(count(svg, '<text')).toBe(withPuzzle ? height + p.columns.flat().length : 0);
        if (withPuzzle) expect(svg).toContain('<title>A &lt;b&gt;&amp;&quot;&apos;title</title>');
      }),
      { numRuns: 60 },
    );
  });

  it('draws a thick rule every five cells', () => {
    const svg = renderSvg(new Uint8Array(12 * 3), 12, 3);
    // Vertical: x = 0, 5, 10, 12; horizontal: y = 0, 3.
    expect(count(svg, 'stroke-width="2"')).toBe(6);
    expect(count(svg, 'stroke-width="0.5"')).toBe(13 - 4 + 4 - 2);
  });

  it('escapes all five XML specials', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });

  it('drops the characters XML 1.0 forbids, so a title holding control characters still gives a well-formed picture', () => {
    expect(escapeXml('a\u0001b\u001b[31mc\td\ne\uffff\ud800f😀')).toBe('ab[31mc\td\nef😀');
    const puzzle = makePuzzle([[1]], [[1]], { title: 'x\u0007\u001b]0;t\u0007' });
    const svg = renderSvg(new Uint8Array([FILLED]), 1, 1, { puzzle });
    expect(svg).toContain('<title>x]0;t</title>');
    expect(svg).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });
});

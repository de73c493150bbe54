import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parsePuzzles,
  parseWebpbnXml,
  writableFormatOf,
  writePuzzles,
  writeWebpbnXml,
  writeWebpbnXmlBundle,
} from '../../corpus/formats/index.js';
import { childElements, readXml } from '../../corpus/formats/xml-reader.js';
import { cluesOf } from '../../corpus/grid.js';
import { loadPuzzles } from '../../corpus/load.js';
import { EMPTY, FILLED, makePuzzle, type Puzzle, type PuzzleMeta } from '../../corpus/model.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('xml-writer')();

/** Characters XML 1.0 forbids, which the writer drops (spelled out here, not imported: a second opinion). */
const forbidden = (c: string) => {
  const code = c.codePointAt(0)!;
  return (code < 0x20 && c !== '\t' && c !== '\n' && c !== '\r') || (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff;
};
const withoutForbidden = (s: string) => Array.from(s).filter((c) => !forbidden(c)).join('');

/** What the reader gives back for a written metadata string: forbidden characters gone, trimmed, and nothing when empty. */
const readBack = (s: string | undefined) => {
  if (s === undefined) return undefined;
  const t = withoutForbidden(s).trim();
  return t === '' ? undefined : t;
};

/** Metadata strings that stress the writer: XML's specials, non-ASCII, controls, CR, lone surrogates, padding. */
const nastyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: fc.constantFrom('&', '<', '>', '"', "'", ';', '#', 'a', ' ', '\t', '\n', '\r', '\x00', '\x01', '\x1f', '\x7f', '\x85', 'é', '©', '漢', '😀', '\ud800', '\udc00', '\ufffe', '\uffff', '&amp;', ']]>', '|', 'X', '.'), maxLength: 20 }),
  fc.constantFrom('Fish & chips "special"', "<b>l'été</b>", 'a\x01b\x02c', '  padded  ', '\r\n', '&#13;', 'webpbn.com #1', 'a  b', ' lead', 'trail ', 'x \x01 y'),
);

const metaArb: fc.Arbitrary<PuzzleMeta> = fc.record(
  { title: nastyText, author: nastyText, copyright: nastyText, license: nastyText, catalogue: nastyText },
  { requiredKeys: [] },
);

/** A puzzle read off a random picture (1..12 on a side), so its clues and goal always agree. */
const puzzleArb: fc.Arbitrary<Puzzle> = fc
  .record({ width: fc.integer({ min: 1, max: 12 }), height: fc.integer({ min: 1, max: 12 }) })
  .chain(({ width, height }) =>
    fc.record({
      width: fc.constant(width),
      height: fc.constant(height),
      cells: fc.array(fc.boolean(), { minLength: width * height, maxLength: width * height }),
      meta: metaArb,
      withGoal: fc.boolean(),
    }),
  )
  .map(({ width, height, cells, meta, withGoal }) => {
    const goal = Uint8Array.from(cells, (on) => (on ? FILLED : EMPTY));
    const { rows, columns } = cluesOf(goal, width, height);
    return makePuzzle(rows, columns, meta, withGoal ? goal : undefined);
  });

/** What a round trip through XML must keep. */
function expected(p: Puzzle) {
  const meta: PuzzleMeta = {};
  for (const key of ['title', 'author', 'copyright', 'license', 'catalogue'] as const) {
    const v = readBack(p.meta[key]);
    if (v !== undefined) meta[key] = v;
  }
  return { id: p.id, width: p.width, height: p.height, rows: p.rows, columns: p.columns, goal: p.goal && Array.from(p.goal), meta };
}

function essence(p: Puzzle) {
  const { source: _source, ...meta } = p.meta;
  return { id: p.id, width: p.width, height: p.height, rows: p.rows, columns: p.columns, goal: p.goal && Array.from(p.goal), meta };
}

/** The written text holds no character XML 1.0 forbids (and no raw CR, which a parser would turn into LF). */
function expectOnlyXmlChars(xml: string) {
  expect(Array.from(xml).filter((c) => forbidden(c) || c === '\r')).toEqual([]);
}

describe('writeWebpbnXml', () => {
  it('round-trips any puzzle: same clues, goal, id and metadata (modulo dropped control characters and trimming)', () => {
    fc.assert(
      fc.property(puzzleArb, (p) => {
        const xml = writeWebpbnXml(p);
        expectOnlyXmlChars(xml);
        const back = parseWebpbnXml(xml, 'rt.xml');
        expect(back).toHaveLength(1);
        expect(essence(back[0]!)).toEqual(expected(p));
        // Through the format-detecting entry point as well.
        expect(essence(parsePuzzles(xml, 'rt.xml')[0]!)).toEqual(expected(p));
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips a bundle of several puzzles, in order', () => {
    fc.assert(
      fc.property(fc.array(puzzleArb, { minLength: 2, maxLength: 6 }), (ps) => {
        const xml = writeWebpbnXmlBundle(ps);
        expectOnlyXmlChars(xml);
        expect(readXml(xml, 'rt.xml').name).toBe('puzzleset');
        expect(parseWebpbnXml(xml, 'rt.xml').map(essence)).toEqual(ps.map(expected));
      }),
      { numRuns: 60 },
    );
  });

  it('writes the shape webpbn exports', () => {
    const goal = Uint8Array.from([FILLED, EMPTY, FILLED, EMPTY, EMPTY, EMPTY]);
    const { rows, columns } = cluesOf(goal, 3, 2);
    const p = makePuzzle(rows, columns, { title: 'T & <q> "x" \'y\'', author: 'A', catalogue: 'webpbn.com #7', license: 'CC0-1.0' }, goal);
    expect(writeWebpbnXml(p)).toBe(
      [
        '<?xml version="1.0"?>',
        '<puzzleset>',
        '<puzzle type="grid" defaultcolor="white">',
        '<source>webpbn.com</source>',
        '<id>#7</id>',
        '<title>T &amp; &lt;q&gt; &quot;x&quot; &apos;y&apos;</title>',
        '<author>A</author>',
        '<license>CC0-1.0</license>',
        '<color name="white" char=".">fff</color>',
        '<color name="black" char="X">000</color>',
        '<clues type="columns">',
        '<line><count>1</count></line>',
        '<line></line>',
        '<line><count>1</count></line>',
        '</clues>',
        '<clues type="rows">',
        '<line><count>1</count><count>1</count></line>',
        '<line></line>',
        '</clues>',
        '<solution type="goal">',
        '<image>',
        '|X.X|',
        '|...|',
        '</image>',
        '</solution>',
        '</puzzle>',
        '</puzzleset>',
        '',
      ].join('\n'),
    );
  });

  it('writes no solution block for a puzzle without a goal', () => {
    const p = makePuzzle([[1], []], [[1], []], { title: 'no goal' });
    const xml = writeWebpbnXml(p);
    expect(xml).not.toContain('<solution');
    const puzzle = childElements(readXml(xml, 'g.xml'), 'puzzle')[0]!;
    expect(childElements(puzzle, 'solution')).toEqual([]);
    const [back] = parseWebpbnXml(xml, 'g.xml');
    expect(back!.goal).toBeUndefined();
    expect([back!.id, back!.meta.title]).toEqual([p.id, 'no goal']);
  });

  it('drops forbidden control characters and keeps tab, newline, CR and non-ASCII', () => {
    const p = makePuzzle([[1]], [[1]], { title: 'a\x00b\x07c\x1b\ufffed\ud800 é\t漢\r\n😀' });
    const xml = writeWebpbnXml(p);
    expectOnlyXmlChars(xml);
    expect(xml).toContain('<title>abcd é\t漢&#13;\n😀</title>');
    expect(parseWebpbnXml(xml, 'c.xml')[0]!.meta.title).toBe('abcd é\t漢\r\n😀');
    // The catalogue is split into <source> and <id> after the drop, so a control character cannot hide a space.
    for (const catalogue of ['webpbn.com \x01 #1', 'a\x02  b', '\x03 x y']) {
      const q = makePuzzle([[1]], [[1]], { catalogue });
      expect(parseWebpbnXml(writeWebpbnXml(q), 'c.xml')[0]!.meta.catalogue).toBe(readBack(catalogue));
    }
  });
});

describe('the bundled webpbn puzzles', () => {
  const puzzles = loadPuzzles('corpus/puzzles/webpbn');

  it('each round-trips through webpbn XML with its id, goal and metadata', () => {
    expect(puzzles.length).toBeGreaterThanOrEqual(12);
    // Most have a goal (#803 and #1611 come without one): both kinds must survive.
    expect(puzzles.filter((p) => p.goal).length).toBeGreaterThanOrEqual(10);
    for (const p of puzzles) {
      const [back] = parseWebpbnXml(writeWebpbnXml(p), `${p.meta.source}.xml`);
      expect(essence(back!), p.meta.source).toEqual(essence(p));
    }
  });

  it('round-trip together as one bundle', () => {
    const back = parseWebpbnXml(writeWebpbnXmlBundle(puzzles), 'webpbn.xml');
    expect(back.map((p) => p.id)).toEqual(puzzles.map((p) => p.id));
    expect(back.map((p) => p.goal && Array.from(p.goal))).toEqual(puzzles.map((p) => p.goal && Array.from(p.goal)));
    expect(back.map(essence)).toEqual(puzzles.map(essence));
  });
});

describe('the xml output format', () => {
  it('is named by a .xml path and written by writePuzzles', () => {
    expect(writableFormatOf('x.xml')).toBe('xml');
    expect(writableFormatOf('dir/X.XML')).toBe('xml');
    const ps = loadPuzzles('corpus/puzzles/webpbn').slice(0, 3);
    expect(writePuzzles([ps[0]!], 'xml')).toBe(writeWebpbnXml(ps[0]!));
    expect(writePuzzles(ps, 'xml')).toBe(writeWebpbnXmlBundle(ps));
  });

  it('nonobench convert IN OUT.xml writes webpbn XML that reads back', async () => {
    if (!existsSync('dist/harness/cli.js')) throw new Error('dist/harness/cli.js is missing: build first');
    const out = join(tmp, 'webpbn.xml');
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
      execFile(process.execPath, ['dist/harness/cli.js', 'convert', 'corpus/puzzles/webpbn', out], { encoding: 'utf8' }, (err, stdout, stderr) =>
        done({ code: err ? Number(err.code) : 0, stdout, stderr }),
      ),
    );
    const want = loadPuzzles('corpus/puzzles/webpbn');
    expect([result.code, result.stderr, result.stdout]).toEqual([0, '', `wrote ${want.length} puzzles to ${out}\n`]);
    expect(readFileSync(out, 'utf8')).toMatch(/^<\?xml version="1\.0"\?>\n<puzzleset>\n<puzzle type="grid"/);
    expect(loadPuzzles(out).map(essence)).toEqual(want.map(essence));
  });
});

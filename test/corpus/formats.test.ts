import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputProblems } from '../../corpus/errors.js';
import {
  detectFormat,
  parseJsonPuzzles,
  parseNon,
  parsePuzzles,
  parseTournament,
  parseWebpbnXml,
  writeJson,
  writeJsonBundle,
  writeNon,
  writeNonBundle,
  writePuzzles,
} from '../../corpus/formats/index.js';
import { readJson } from '../../corpus/formats/json-reader.js';
import { childElements, readXml, textOf } from '../../corpus/formats/xml-reader.js';
import { cluesOf } from '../../corpus/grid.js';
import { loadPuzzles } from '../../corpus/load.js';
import { EMPTY, FILLED, makePuzzle, type Puzzle, type PuzzleMeta } from '../../corpus/model.js';
import { problemsOf } from '../helpers/problems.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const FIX = 'test/fixtures/formats';
const tmp = tempDirs('formats')();

/** What a round trip must keep: everything but where the puzzle was read from. */
function essence(p: Puzzle) {
  const { source: _source, ...meta } = p.meta;
  return { id: p.id, width: p.width, height: p.height, rows: p.rows, columns: p.columns, goal: p.goal && Array.from(p.goal), meta };
}

const viaNon = (ps: Puzzle[]) => parseNon(writeNonBundle(ps), 'rt.non');
const viaJson = (ps: Puzzle[]) => parseJsonPuzzles(ps.length === 1 ? writeJson(ps[0]!) : writeJsonBundle(ps), 'rt.json');

function expectRoundTrips(ps: Puzzle[]): void {
  const want = ps.map(essence);
  expect(viaNon(ps).map(essence)).toEqual(want);
  expect(viaJson(ps).map(essence)).toEqual(want);
  // Both directions between the two written formats.
  expect(viaJson(viaNon(ps)).map(essence)).toEqual(want);
  expect(viaNon(viaJson(ps)).map(essence)).toEqual(want);
}

describe('round trips', () => {
  for (const file of ['sample.non', 'sample.nonpack', 'sample.json', 'bundle.json', 'sample.xml', 'tiny-questions.txt']) {
    it(`${file}: parse → write → parse keeps clues, goal, meta and id`, () => {
      const ps = loadPuzzles(`${FIX}/${file}`);
      expect(ps.length).toBeGreaterThan(0);
      expectRoundTrips(ps);
    });
  }

  it('keeps the metadata of the fixtures exactly', () => {
    const [p] = loadPuzzles(`${FIX}/sample.non`);
    expect(p!.meta).toEqual({
      catalogue: 'test fixture',
      title: 'Fish & chips "special"',
      author: 'A. Author <a@example.org>',
      copyright: '© 2024 A. Author',
      license: 'CC0-1.0',
      source: `${FIX}/sample.non`,
    });
    const [x] = loadPuzzles(`${FIX}/sample.xml#1`);
    expect(x!.meta).toEqual({
      title: 'Café & bar',
      author: 'Jan Tester',
      copyright: '© Copyright 2004 by Jan Tester',
      catalogue: 'https://webpbn.com #9001',
      source: `${FIX}/sample.xml#1`,
    });
  });

  it('the same picture gives the same id in every format', () => {
    const ids = [`${FIX}/sample.nonpack#1`, `${FIX}/bundle.json#1`, `${FIX}/sample.xml#1`].map((f) => loadPuzzles(f)[0]!.id);
    expect(new Set(ids).size).toBe(1);
    expect(loadPuzzles(`${FIX}/sample.non`)[0]!.id).toBe(loadPuzzles(`${FIX}/sample.json`)[0]!.id);
  });

  it('random puzzles with arbitrary metadata survive .non and JSON, singly and in bundles', () => {
    // Arbitrary text, plus text built from the pieces that escaping has to get right.
    const pieces = fc.constantFrom('&', 'amp;', 'quot;', 'eacute;', '#10;', '"', '\n', '\r', '\t', '\u2028', '\u2029', ' ', 'a', '©');
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.array(pieces, { maxLength: 8 }).map((a) => a.join('')));
    const meta = fc.record(
      { title: text, author: text, copyright: text, license: fc.oneof(text, fc.constantFrom('CC0-1.0', 'GPL-2.0')), catalogue: text },
      { requiredKeys: [] },
    );
    const puzzle = fc
      .record({ w: fc.integer({ min: 1, max: 9 }), h: fc.integer({ min: 1, max: 9 }), withGoal: fc.boolean(), meta, bits: fc.array(fc.boolean(), { minLength: 81, maxLength: 81 }) })
      .map(({ w, h, withGoal, meta, bits }) => {
        const grid = Uint8Array.from({ length: w * h }, (_, i) => (bits[i] ? FILLED : EMPTY));
        const { rows, columns } = cluesOf(grid, w, h);
        return makePuzzle(rows, columns, meta as PuzzleMeta, withGoal ? grid : undefined);
      });
    fc.assert(
      fc.property(fc.array(puzzle, { minLength: 1, maxLength: 3 }), (ps) => {
        expectRoundTrips(ps);
      }),
      { numRuns: 150 },
    );
  });
});

describe('.non', () => {
  it('writes the documented layout: metadata, size, clues with 0 for an empty line, quoted goal', () => {
    const p = makePuzzle([[2], []], [[1], [1]], { title: 'a "b"', author: 'me', license: 'CC0-1.0' }, new Uint8Array([1, 1, 2, 2]));
    expect(writeNon(p)).toBe(
      'title "a &quot;b&quot;"\nby "me"\nlicense CC0-1.0\nwidth 2\nheight 2\n\nrows\n2\n0\n\ncolumns\n1\n1\n\ngoal "1100"\n',
    );
    expect(writeNon(makePuzzle([[1]], [[1]], { license: 'see the file LICENSE' }))).toContain('license "see the file LICENSE"\n');
  });

  it("reads HTML's Latin-1 and punctuation names in strings, as the format suggests (Caf&eacute;)", () => {
    const [p] = parseNon('title "Caf&eacute; &ndash; &Aring;&yuml;&nbsp;&euro; &unknown;"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', 'e.non');
    expect(p!.meta.title).toBe('Café – Åÿ\u00a0€ &unknown;');
    expect(writeNon(p!)).toContain('title "Café – Åÿ\u00a0€ &amp;unknown;"\n');
  });

  it('keeps a reference named like a property of every object (&constructor;, &toString;) as written, as any unknown name', () => {
    const [p] = parseNon('title "A &constructor; &toString; &valueOf; &hasOwnProperty; &amp;"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', 'o.non');
    expect(p!.meta.title).toBe('A &constructor; &toString; &valueOf; &hasOwnProperty; &');
    expect(writeNon(p!)).toContain('title "A &amp;constructor; &amp;toString; &amp;valueOf; &amp;hasOwnProperty; &amp;"\n');
  });

  it("reads Simpson's `rows N` / `columns N` sizes and skips # comment lines, also inside a clue block", () => {
    const plain = parseNon('width 2\nheight 2\nrows\n1\n0\ncolumns\n1\n0\n', 'p.non');
    const simpson = parseNon('# typed in by hand\ncolumns 2\nrows 2\n\nrows\n# the top row\n1\n0\ncolumns\n1\n# the last column\n0\n', 's.non');
    expect(simpson.map(essence)).toEqual(plain.map(essence));
    expect(simpson[0]!.id).toBe(plain[0]!.id);
    expect(problemsOf(() => parseNon('height 2\nrows 2\nwidth 1\nrows\n1\n1\ncolumns\n2\n', 'd.non'))).toEqual([['d.non', 2, 'duplicate height key (first on line 1)']]);
  });

  it('reads CRLF line ends, a byte-order mark, quoted or bare goals and ignores unknown keys', () => {
    const text = readFileSync(`${FIX}/sample.non`, 'utf8');
    const crlf = `\ufeff${text.replace(/\n/g, '\r\n')}`;
    expect(parseNon(crlf, 'c.non').map(essence)).toEqual(parseNon(text, 's.non').map(essence));
    const quoted = parseNon(text.replace('goal 110100000110', 'goal "110100000110"'), 'q.non');
    expect(quoted[0]!.goal).toEqual(parseNon(text, 's.non')[0]!.goal);
  });

  it('reads members of a bundle separated by ====, skipping empty members', () => {
    const ps = parseNon(readFileSync(`${FIX}/sample.nonpack`, 'utf8'), 'p.nonpack');
    expect(ps.map((p) => p.meta.title)).toEqual(['first', 'second, no goal', 'third']);
    expect(ps[1]!.rows).toEqual([[], [2]]);
    expect(ps[1]!.goal).toBeUndefined();
  });

  it('tracks the line of every clue line in error messages', () => {
    const text = 'width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1,9\n';
    try {
      parseNon(text, 't.non');
      expect.unreachable();
    } catch (err) {
      expect(inputProblems(err)!.map((p) => p.message)).toEqual(['t.non:8: column 2: clue 1,9 needs 11 cells but the column has 2']);
    }
  });
});

/** The problems readXml reports for a text, as lines. */
const xmlErrors = (text: string) => {
  try {
    readXml(text, 'e.xml');
  } catch (e) {
    return inputProblems(e)!.map((p) => p.message);
  }
  return [];
};

describe('webpbn XML', () => {
  it('reads a puzzle set: entities, comments, DOCTYPE with internal subset, empty lines, goal image', () => {
    const ps = parseWebpbnXml(readFileSync(`${FIX}/sample.xml`, 'utf8'), 'x.xml');
    expect(ps).toHaveLength(2);
    expect(ps[0]!.rows).toEqual([[1, 1], [2]]);
    expect(ps[0]!.columns).toEqual([[2], [1], [1]]);
    expect(Array.from(ps[0]!.goal!)).toEqual([1, 2, 1, 1, 1, 2]);
    expect(ps[1]!.rows).toEqual([[1], [], [1]]);
    expect(ps[1]!.columns).toEqual([[1, 1], []]);
    expect(ps[1]!.goal).toBeUndefined();
  });

  it('uses the colour characters the file declares for its image', () => {
    const xml = `<puzzleset><puzzle><color name="black" char="#">000</color><color name="white" char="-">fff</color>
<clue type="columns"><line><count>1</count></line><line/></clue><clue type="rows"><line><count>1</count></line></clue>
<solution type="goal"><image>|#-|</image></solution></puzzle></puzzleset>`;
    expect(Array.from(parseWebpbnXml(xml, 'c.xml')[0]!.goal!)).toEqual([1, 2]);
  });

  it('lets the declared characters win over the defaults X, # and .', () => {
    // White is `#` and black `.`, `X` and `o` in turn: every other default is the opposite colour or none.
    const image = (white: string, black: string, row: string) =>
      `<puzzle><color name="white" char="${white}"/><color name="black" char="${black}"/>
<clues type="columns"><line><count>1</count></line><line/></clues><clues type="rows"><line><count>1</count></line></clues>
<solution><image>|${row}|</image></solution></puzzle>`;
    for (const [white, black] of [['#', '.'], ['#', 'o'], ['.', 'X'], ['X', '#']]) {
      expect(Array.from(parseWebpbnXml(image(white!, black!, `${black}${white}`), 'c.xml')[0]!.goal!), `${white} ${black}`).toEqual([FILLED, EMPTY]);
    }
  });

  it('the XML reader keeps element lines, attributes in both quote styles, CDATA and numeric entities', () => {
    const root = readXml(`<?xml version="1.0"?>\n<!-- c -->\n<a x='1' y="&lt;2&gt;">\n<b z="3"/>\n<c><![CDATA[<raw>]]>&#65;&#x42;&apos;&eacute;</c>\n</a>\n`, 'r.xml');
    expect(root.name).toBe('a');
    expect(root.line).toBe(3);
    expect(root.attrs).toEqual({ x: '1', y: '<2>' });
    const [b, c] = childElements(root);
    expect([b!.name, b!.line, b!.attrs.z]).toEqual(['b', 4, '3']);
    expect([c!.line, textOf(c!)]).toEqual([5, "<raw>AB'é"]);
  });

  it('the XML reader reports structural errors with their line', () => {
    expect(xmlErrors('<a>\n<b>\n</a>')).toEqual(['e.xml:3: invalid XML: closing tag does not match <b> opened on line 2']);
    expect(xmlErrors('<a>\n<b>')).toEqual(['e.xml:2: invalid XML: unclosed element <b> opened on line 2']);
    expect(xmlErrors('<a/>\n<b/>')).toEqual(['e.xml:2: invalid XML: documents may contain only one root']);
    expect(xmlErrors('<a>\n<!-- never closed')).toEqual(['e.xml:1: invalid XML: unclosed element <a> opened on line 1']);
    expect(xmlErrors('<a>\n<b z=3/></a>')).toEqual(['e.xml:2: invalid XML: unquoted attribute value']);
  });

  it('never expands an entity a DOCTYPE declares: external entities and entity bombs are one error line', () => {
    const xxe = '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<r>&xxe;</r>';
    expect(xmlErrors(xxe)).toEqual(['e.xml:3: invalid XML: undefined entity &xxe; (entities a DOCTYPE declares are not expanded)']);
    const lol = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`)].join('\n');
    expect(xmlErrors(`<!DOCTYPE lolz [\n${lol}\n]>\n<lolz>&lol9;</lolz>`)).toEqual(['e.xml:13: invalid XML: undefined entity &lol9; (entities a DOCTYPE declares are not expanded)']);
    expect(xmlErrors('<r>\n&nosuch;</r>')).toEqual(['e.xml:2: invalid XML: undefined entity &nosuch; (entities a DOCTYPE declares are not expanded)']);
  });
});

describe('JSON', () => {
  it('accepts clue lines as arrays or strings, a goal as a string or row strings, and optional sizes', () => {
    const ps = parseJsonPuzzles(readFileSync(`${FIX}/bundle.json`, 'utf8'), 'b.json');
    expect(ps[0]!.goal).toEqual(new Uint8Array([1, 2, 1, 1, 1, 2]));
    expect(ps[1]!.rows).toEqual([[], [2]]);
    // The same spellings as .non: licence, catalog.
    const [spelt] = parseJsonPuzzles('{"licence": "CC0-1.0", "catalog": "#7", "rows": [[1]], "columns": [[1]]}', 's.json');
    expect(spelt!.meta).toMatchObject({ license: 'CC0-1.0', catalogue: '#7' });
  });

  it('the JSON reader records lines and keeps number text', () => {
    const node = readJson('{\n "a": [\n  1.5,\n  "x"\n ]\n}', 'j.json');
    expect(node.kind).toBe('object');
    if (node.kind !== 'object') return;
    const a = node.entries[0]!;
    expect([a.key, a.keyLine]).toEqual(['a', 2]);
    expect(a.value).toEqual({ kind: 'array', line: 2, items: [{ kind: 'number', line: 3, text: '1.5' }, { kind: 'string', line: 4, value: 'x' }] });
  });

  it('writes one clue line per text line and a JSON array for a bundle', () => {
    const p = makePuzzle([[1, 1]], [[1], [], [1]], { title: 't' }, new Uint8Array([1, 2, 1]));
    expect(writeJson(p)).toBe(
      '{\n  "title": "t",\n  "width": 3,\n  "height": 1,\n  "rows": [\n    [1, 1]\n  ],\n  "columns": [\n    [1],\n    [],\n    [1]\n  ],\n  "goal": "101"\n}\n',
    );
    expect(JSON.parse(writePuzzles([p, p], 'json'))).toHaveLength(2);
    expect(writePuzzles([p, p], 'non').split('\n').filter((l) => l === '====')).toHaveLength(1);
  });
});

describe('tournament format', () => {
  it('infers each square size from the line count and reads an empty line as 0', () => {
    const ps = parseTournament(readFileSync(`${FIX}/tiny-questions.txt`, 'utf8'), 'q.txt');
    expect(ps.map((p) => `${p.width}x${p.height}`)).toEqual(['3x3', '3x3', '4x4']);
    expect(ps[1]!.columns).toEqual([[1, 1], [], [1]]);
    expect(ps.every((p) => p.goal === undefined)).toBe(true);
  });

  it('takes any number of trailing blank lines as separators, keeping an empty last row clue', () => {
    const ids = (text: string) => parseTournament(text, 'q.txt').map((p) => `${p.width}x${p.height} ${p.rows.map((r) => r.join(',')).join('|')}`);
    const two = '$1\n1\n1\n1\n1\n';
    expect(ids(`${two}\n\n\n$2\n1\n1\n1\n1\n\n\n`)).toEqual(['2x2 1|1', '2x2 1|1']);
    // A 2×2 puzzle whose last row is empty, written as a blank line, then separators.
    expect(ids('$1\n1\n1\n2\n\n\n\n$2\n1\n0\n1\n\n')).toEqual(['2x2 2|', '2x2 1|']);
  });

  it('attaches the sibling solutions file: solution $N to puzzle $N, when it satisfies the clues', () => {
    const ps = loadPuzzles(`${FIX}/tiny-questions.txt`);
    expect(ps.map((p) => p.goal !== undefined)).toEqual([true, true, false]);
    expect(Array.from(ps[1]!.goal!)).toEqual([1, 2, 1, 2, 2, 2, 1, 2, 2]);
    expect(ps.map((p) => p.meta.source)).toEqual([1, 2, 3].map((k) => `${FIX}/tiny-questions.txt#${k}`));
  });

  it('takes an explicit solutions file from the loader options', () => {
    const copy = join(tmp, 'copy.txt');
    writeFileSync(copy, readFileSync(`${FIX}/tiny-questions.txt`));
    expect(loadPuzzles(copy).some((p) => p.goal)).toBe(false);
    expect(loadPuzzles(copy, { solutions: `${FIX}/tiny-solutions.txt` }).filter((p) => p.goal)).toHaveLength(2);
  });
});

describe('format detection', () => {
  it('goes by extension first, then by content', () => {
    expect(detectFormat('a.non', '{')).toBe('non');
    expect(detectFormat('a.nonpack', '')).toBe('non');
    expect(detectFormat('a.xml', '')).toBe('xml');
    expect(detectFormat('a.json', '')).toBe('json');
    expect(detectFormat('a.txt', '$1\n')).toBe('tournament');
    expect(detectFormat('a.txt', 'notes\n')).toBeUndefined();
    expect(detectFormat('puzzle', '<?xml version="1.0"?><puzzleset/>')).toBe('xml');
    expect(detectFormat('puzzle', '  [{"rows": []}]')).toBe('json');
    expect(detectFormat('puzzle', '$1\n1\n1\n')).toBe('tournament');
    expect(detectFormat('puzzle', 'title "x"\nwidth 1\n')).toBe('non');
    expect(detectFormat('puzzle', 'hello\n')).toBeUndefined();
    expect(detectFormat('puzzle', 'rows\n1\n')).toBe('non');
    // Prose whose lines begin with .non keywords ("by", "title", "width of ...") is not a puzzle.
    expect(detectFormat('LICENSE', 'Licensed by the authors.\nby anyone\ntitle to the work\nwidth of the grid\n')).toBeUndefined();
  });

  it('loads files whose extension says nothing, by their content', () => {
    for (const [name, src] of [['noext-non', 'sample.non'], ['noext-json.dat', 'sample.json'], ['noext-xml', 'sample.xml']] as const) {
      const path = join(tmp, name);
      writeFileSync(path, readFileSync(`${FIX}/${src}`));
      expect(loadPuzzles(path).length).toBeGreaterThan(0);
    }
    expect(parsePuzzles('$1\n1\n1\n', 'q')[0]!.rows).toEqual([[1]]);
  });
});

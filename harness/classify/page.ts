import type { TopLevelSpec } from 'vega-lite';
import { OKABE_ITO, renderSvg } from '../report/charts.js';
import { htmlFacts, htmlPage, htmlTable, paragraph, scrolling } from '../report/html.js';
import { PUZZLE_CLASSES } from './classify.js';
import { byDifficulty, classifyRow, classOf, type ClassifiedPuzzle } from './run.js';

/** Most puzzles listed in the page's table (the CSV has them all). */
const MAX_ROWS = 1000;

/** What the page says of the run besides the puzzles. */
export interface DifficultyPageInput {
  results: readonly ClassifiedPuzzle[];
  timeoutS: number;
  csvPath: string;
}

/** Puzzles per class, one bar each in the classes' order, coloured by the logic they need. */
function classChart(results: readonly ClassifiedPuzzle[]): TopLevelSpec {
  const values = PUZZLE_CLASSES.map((cls) => ({ class: cls, puzzles: results.filter((r) => classOf(r) === cls).length }));
  return {
    width: 480,
    height: 24 * PUZZLE_CLASSES.length,
    data: { values },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: 'class', type: 'nominal', sort: [...PUZZLE_CLASSES], title: null },
      x: { field: 'puzzles', type: 'quantitative', title: 'puzzles', axis: { tickMinStep: 1 } },
      color: { field: 'class', type: 'nominal', sort: [...PUZZLE_CLASSES], scale: { range: OKABE_ITO }, legend: null },
      description: { field: 'puzzles' },
    },
  };
}

const HEADER = ['rank', 'puzzle', 'title', 'size', 'class', 'line passes', 'line %', 'probes tried', 'probes decisive', 'probe %', 'dead ends', 'max depth', 'decisions'];

function tableRow(r: ClassifiedPuzzle): string[] {
  const row = classifyRow(r, 0);
  return [
    row.difficulty_rank,
    row.puzzle_path || r.puzzle.id,
    row.title,
    `${row.width}×${row.height}`,
    row.class,
    row.line_passes,
    row.line_resolved_pct,
    row.probes,
    row.probes_decisive,
    row.probe_resolved_pct,
    row.dead_ends,
    row.max_depth,
    row.decisions,
  ].map(String);
}

/**
 * The classify page: puzzles per class, and every puzzle's difficulty profile, hardest first, so
 * a designer sees which puzzles need which deductions; those without a difficulty after them.
 */
export async function difficultyPage(input: DifficultyPageInput): Promise<string> {
  const { results } = input;
  const sorted = byDifficulty(results);
  const ranked = sorted.filter((r) => r.difficultyRank !== null).length;
  const shown = sorted.slice(0, MAX_ROWS);
  const sections = [
    '<h1>Puzzles by difficulty</h1>',
    htmlFacts([
      ['puzzles', String(results.length)],
      ['with a difficulty', String(ranked)],
      ['time limit per puzzle (s)', input.timeoutS > 0 ? String(input.timeoutS) : 'none'],
      ['CSV', input.csvPath],
    ]),
    '<h2>Classes</h2>',
    paragraph(
      'Each puzzle is in the first class whose logic finishes it: overlap, exact line logic, contradiction probing, or guessing (search); ' +
        'the other classes are puzzles with several solutions, none, or none found within the limit.',
    ),
    `<figure>${await renderSvg(classChart(results))}</figure>`,
    '<h2>Hardest first</h2>',
    paragraph(
      'Rank 1 is the hardest. Puzzles are ordered by class first (guessing above probing above line logic above overlap), ' +
        'then by the dead ends and the depth of the search, then by the probes that decided a cell, then by the rounds of line logic; ' +
        'equal profiles share a rank. Puzzles with several solutions, none, or not settled within the limit have no rank and come last.',
    ),
    scrolling(htmlTable(HEADER, shown.map(tableRow), (i) => i === 0 || i >= 5)),
  ];
  if (sorted.length > shown.length) sections.push(paragraph(`… and ${sorted.length - shown.length} more in the CSV.`));
  return htmlPage('nonobench classify: puzzles by difficulty', sections);
}

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { buildRow, ROW_STATUSES, RUN_COLUMNS, rowValues, type Judged, type RunFields } from '../../harness/results/row.js';
import { makePuzzle } from '../../corpus/model.js';
import { stringify } from 'csv-stringify/sync';

/** The column names of the README's "CSV columns of a run" table, in order (a cell may name several). */
function readmeColumns(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('### CSV columns of a run'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| column |')));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
}

const RUN: RunFields = {
  run_id: 'r',
  started_at: '2026-01-01T00:00:00.000Z',
  nonobench_version: '0.1.0',
  git_commit: '',
  node_version: 'v20',
  cpu_model: 'cpu',
  timeout_s: 10,
  max_solutions: 2,
  workers: 1,
  warmup: 0,
  memory_mb: 256,
  definition: '',
};

describe('the run row', () => {
  it('has exactly the columns the README documents, in its order', () => {
    expect(readmeColumns()).toEqual([...RUN_COLUMNS]);
  });

  it('gives every column a value, resolved_pct from the counted cells, and reads back as written', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom(...ROW_STATUSES),
        fc.option(fc.nat(), { nil: undefined }),
        fc.string(),
        (width, height, status, resolved, text) => {
          const puzzle = makePuzzle(Array.from({ length: height }, () => []), Array.from({ length: width }, () => []), { title: text });
          const cells = resolved === undefined ? '' : Math.min(resolved, width * height);
          const judged: Judged = { status, verified: '', time_ms: 1.5, cells_resolved: cells, dead_ends: 0, decisions: 0, line_solves: 0, solutions_found: 0, max_depth: 0, extra: '', error: text };
          const row = buildRow(RUN, { index: 7, puzzle, strategy: 's', config: 's:a=1', strategyFile: text, rep: 2, params: '{"a":1}' }, judged, 0.12345, { cpuMs: 1.23456, peakRssKb: 99 });
          const values = rowValues(row);
          expect(values).toHaveLength(RUN_COLUMNS.length);
          expect(values.every((v) => v !== undefined)).toBe(true);
          expect(row.resolved_pct).toBe(cells === '' ? '' : Math.round((1000 * cells) / (width * height)) / 10);
          expect(row.calib_ms).toBe(0.123);
          expect([row.cpu_ms, row.peak_rss_kb, row.strategy_file]).toEqual([1.235, 99, text]);
          const back = parseCsv(stringify([[...RUN_COLUMNS], values])).records[0]!;
          for (const c of RUN_COLUMNS) expect(back[c], c).toBe(String(row[c]));
        },
      ),
    );
  });
});

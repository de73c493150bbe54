import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

const DANCER = 'corpus/puzzles/webpbn/1.non';
const dir = tempDirs('solve-json-run')();
requireBuiltCli();

/** The one data row of a run CSV, by column name (no field of these rows holds a comma or a quote that matters here). */
function runRow(csvPath: string): Record<string, string> {
  const [header, row] = readFileSync(csvPath, 'utf8').trim().split('\n');
  const cols = header!.split(',');
  const cells = row!.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, ''));
  return Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? '']));
}

describe('solve --json means what the run CSV means', () => {
  it('a wrong answer has status wrong, as run records it, with the claim beside it', () => {
    const plugin = 'test/fixtures/harness/wrong-answer.mjs';
    const csv = join(dir, 'wrong.csv');
    runCli('run', DANCER, '-s', plugin, '--warmup', '0', '--workers', '1', '--out', csv, '--quiet');
    expect(runRow(csv).status).toBe('wrong');
    const solved = runCli('solve', DANCER, '-s', plugin, '--json', '--max-solutions', '1');
    expect(solved.code).toBe(1);
    const r = JSON.parse(solved.out);
    expect(r.status).toBe('wrong');
    expect(r.claimed).toBe('solved');
    const text = runCli('solve', DANCER, '-s', plugin, '--max-solutions', '1');
    expect(text.out).toContain('status: wrong (the strategy claimed solved)\n');
  });

  it('a counter the strategy leaves out is null in JSON and "-" in the text, never undefined', () => {
    const plugin = 'test/fixtures/harness/no-counters.mjs';
    const json = runCli('solve', DANCER, '-s', plugin, '--json');
    expect(json.code).toBe(0);
    const r = JSON.parse(json.out);
    for (const f of ['deadEnds', 'decisions', 'lineSolves', 'maxDepth']) expect(r[f], f).toBeNull();
    const text = runCli('solve', DANCER, '-s', plugin);
    expect(text.out).not.toContain('undefined');
    expect(text.out).toContain('line solves: -, decisions: -, dead ends: -, max depth: -, solutions found: 0');
  });
});

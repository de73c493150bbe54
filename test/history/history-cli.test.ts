import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCsv, writeCsv } from '../../harness/results/csv.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

requireBuiltCli();
const tmp = tempDirs('history-cli');

/** Commits that are in no repository: the history orders them by when they ran. */
const COMMITS = ['111111111111', '222222222222', '333333333333'];
const CONFIGS = ['backtrack', 'sat'];

describe('nonobench history', () => {
  const dir = tmp();
  const runs = join(dir, 'runs');

  beforeAll(() => {
    // One real run of two tiny puzzles, recorded as if made at three commits.
    const run = join(dir, 'run.csv');
    const made = runCli('run', 'corpus/puzzles/webpbn/1.non', 'corpus/puzzles/webpbn/6.non', '--strategies', CONFIGS.join(','), '--repeat', '2', '--workers', '1', '--out', run, '--quiet');
    expect(made.code).toBe(0);
    const { columns, records } = readCsv(run);
    mkdirSync(runs);
    COMMITS.forEach((commit, k) =>
      writeCsv(
        join(runs, `${3 - k}.csv`),
        columns,
        records.map((r) => ({ ...r, git_commit: commit, run_id: `run-${k}`, started_at: `2026-05-0${k + 1}T00:00:00.000Z` })),
      ),
    );
  });

  it("the history page of three commits' runs shows each strategy's trend", () => {
    const out = join(dir, 'page.html');
    const r = runCli('history', runs, '--out', out);
    expect(r.err).toBe('');
    expect(r.out).toContain(`history of 3 commits, 2 configurations written to ${out}`);
    expect(r.code).toBe(0);
    const page = readFileSync(out, 'utf8');
    const charts = [...page.matchAll(/<figure class="trend" data-metric="([^"]+)">([\s\S]*?)<\/figure>/g)];
    expect(charts.map((c) => c[1])).toEqual(['time', 'solved', 'dead ends']);
    for (const [, metric, svg] of charts)
      for (const config of CONFIGS) for (const commit of COMMITS) expect(svg).toContain(`<title>${config} at ${commit}: ${metric} `);
    expect(page).toContain('by first run (earliest started_at)');
  });

  it('bad input: one line naming the file and line, a warning for a CSV that is no run, exit 2, and the page still made from the good files', () => {
    const mixed = tmp();
    const good = readFileSync(join(runs, '1.csv'), 'utf8').split('\n');
    writeFileSync(join(mixed, 'good.csv'), good.join('\n'));
    writeFileSync(join(mixed, 'other.csv'), readFileSync(join(runs, '2.csv')));
    good[3] = good[3]!.replace(',unique,', ',uniqe,');
    writeFileSync(join(mixed, 'bad.csv'), good.join('\n'));
    writeFileSync(join(mixed, 'notes.csv'), 'when,what\n2026-05-01,new laptop\n');
    const out = join(mixed, 'page.html');
    const r = runCli('history', mixed, '--out', out);
    expect(r.err.trim().split('\n')).toEqual([
      `nonobench history: ${join(mixed, 'notes.csv')}:1: not a run CSV (no git_commit, puzzle_id, strategy, status, time_ms columns); skipped`,
      `${join(mixed, 'bad.csv')}:4: column status: unknown status "uniqe"`,
    ]);
    expect(r.code).toBe(2);
    expect(r.out).toContain(`history of 2 commits, 2 configurations written to ${out}`);
    expect(readFileSync(out, 'utf8')).toContain('<figure class="trend" data-metric="time">');
  });
});

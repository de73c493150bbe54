import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHistory, collect, DEFAULT_HISTORY_OPTIONS, stepLine, worseAtLast, type History } from '../../harness/history/history.js';
import { buildHistoryPage } from '../../harness/history/page.js';
import { UsageError } from '../../harness/io/thrown.js';
import { runRows, writeRun } from '../fixtures/history/synthetic.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('history-page');

const COMMITS = ['c0c0c0c0c0c0', 'c1c1c1c1c1c1', 'c2c2c2c2c2c2', 'c3c3c3c3c3c3', 'c4c4c4c4c4c4', 'c5c5c5c5c5c5'];

/**
 * Six commits, three repetitions each: sat 30% slower from the fourth commit on; backtrack's dead
 * ends double at the last; two puzzles join the corpus at the third commit (which must not move any line).
 */
function writeHistory(dir: string, noCpuAt = -1): void {
  COMMITS.forEach((commit, k) =>
    writeRun(
      join(dir, `run-${k}.csv`),
      runRows({
        commit,
        startedAt: `2026-01-0${k + 1}T00:00:00.000Z`,
        runId: `run${k}`,
        configs: { sat: k >= 3 ? 1.3 : 1, backtrack: 2 },
        puzzles: k >= 2 ? [0, 1, 2, 3, 4, 5, 6, 7] : [0, 1, 2, 3, 4, 5],
        reps: 3,
        seed: k,
        noise: 0.02,
        deadEnds: (p, config) => (config === 'backtrack' && k === 5 ? 2 * p : p),
        noCpu: k === noCpuAt,
      }),
    ),
  );
}

async function historyOf(dir: string, time = DEFAULT_HISTORY_OPTIONS.time): Promise<History> {
  // Outside any git repository: commits in the order they were run.
  return buildHistory(collect([dir]), { ...DEFAULT_HISTORY_OPTIONS, time, cwd: tmp() });
}

describe('the history page of configurations named like a property of every object', () => {
  it('draws constructor, toString and __proto__ and names each in the legend', async () => {
    const dir = tmp();
    COMMITS.slice(0, 2).forEach((commit, k) =>
      writeRun(
        join(dir, `run-${k}.csv`),
        runRows({ commit, startedAt: `2026-01-0${k + 1}T00:00:00.000Z`, runId: `run${k}`, configs: { constructor: 1, toString: 1, ['__proto__']: 1 }, puzzles: [0, 1, 2], reps: 1, seed: k, noise: 0.02 }),
      ),
    );
    const h = await historyOf(dir);
    expect(h.configs.map((c) => c.config).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    const html = await buildHistoryPage(h);
    const legend = [...html.matchAll(/<text text-anchor="start"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    for (const name of ['constructor', 'toString', '__proto__']) expect(legend).toContain(name);
    expect(legend).not.toContain('undefined');
  });
});

describe('the history page', () => {
  const dir = tmp();
  writeHistory(dir);

  it('names each step change at its commit, and only those: puzzles joining the corpus move no line', async () => {
    const h = await historyOf(dir);
    expect(h.commits.map((c) => c.label)).toEqual(COMMITS);
    // Times are noisy (2% a repetition): the step measured is 30% give or take one.
    expect(h.steps.map(stepLine)).toEqual([expect.stringMatching(/^sat: time \+(29|30|31)% at c3c3c3c3c3c3 \(after c2c2c2c2c2c2\)$/), 'backtrack: dead ends +100% at c5c5c5c5c5c5 (after c4c4c4c4c4c4)']);
    // Only the dead ends step is at the last commit (what --fail-on-step fails on).
    expect(worseAtLast(h).map((s) => s.config)).toEqual(['backtrack']);
    const sat = h.configs.find((c) => c.config === 'sat')!;
    expect(sat.levels.solved.map((l) => l.value)).toEqual([8, 8, 8, 8, 8, 8]);
    expect(sat.puzzlesRun).toEqual([6, 6, 8, 8, 8, 8]);
  });

  it('is one self-contained page: nothing fetched, a chart per metric with a line per configuration, hover titles on points, the step named', async () => {
    const h = await historyOf(dir);
    const page = await buildHistoryPage(h);
    expect(page).not.toMatch(/<script|\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    const figures = [...page.matchAll(/<figure class="trend" data-metric="([^"]+)">([\s\S]*?)<\/figure>/g)];
    expect(figures.map((f) => f[1])).toEqual(['time', 'solved', 'dead ends']);
    for (const [, metric, svg] of figures) {
      expect(svg).toMatch(/^<svg/);
      // A point per configuration and commit, each with its hover text.
      for (const config of ['sat', 'backtrack'])
        for (const commit of COMMITS) expect(svg).toContain(`<title>${config} at ${commit}: ${metric} `);
    }
    expect(figures[0]![2]).toMatch(/<title>step: sat: time \+(29|30|31)% at c3c3c3c3c3c3 \(after c2c2c2c2c2c2\)<\/title>/);
    expect(figures[0]![2]).toMatch(/>\+(29|30|31)%<\/text>/);
    expect(figures[2]![2]).toContain('<title>step: backtrack: dead ends +100% at c5c5c5c5c5c5 (after c4c4c4c4c4c4)</title>');
    expect(page).toMatch(/<td>sat<\/td><td>time<\/td><td>\+(29|30|31)%<\/td><td>c3c3c3c3c3c3<\/td><td>c2c2c2c2c2c2<\/td>/);
    expect(page).toContain('CPU time (cpu_ms)');
  });

  it('reads a run found twice (a merged file beside its shards, a copy) once', () => {
    const copy = tmp();
    cpSync(join(dir, 'run-0.csv'), join(copy, 'again.csv'));
    const c = collect([dir, copy, join(dir, 'run-1.csv')]);
    expect([c.files, c.rows, c.duplicates]).toEqual([7, 2 * 36 + 4 * 48, 36]);
  });

  it('keeps a row whose run and task an earlier row has when it names another puzzle: only the same run, task and pair repeats', () => {
    const reused = tmp();
    const shape = { commit: COMMITS[0]!, startedAt: '2026-01-01T00:00:00.000Z', runId: 'one-run', configs: { sat: 1 }, reps: 1, seed: 0 };
    writeRun(join(reused, 'a.csv'), runRows({ ...shape, puzzles: [0, 1] }));
    writeRun(join(reused, 'b.csv'), runRows({ ...shape, puzzles: [2, 3] }));
    const copy = tmp();
    cpSync(join(reused, 'b.csv'), join(copy, 'b-again.csv'));
    const c = collect([reused, copy]);
    expect([c.rows, c.duplicates]).toEqual([4, 2]);
    expect([...c.cells.get('sat')!.get(COMMITS[0]!)!.keys()].sort()).toEqual(['p0', 'p1', 'p2', 'p3']);
  });

  it('follows CPU time when every solved row has it, else wall time, saying why; --time cpu then refuses', async () => {
    const partly = tmp();
    writeHistory(partly, 2);
    const h = await historyOf(partly);
    expect([h.basis, h.basisNote]).toEqual(['wall', `${join(partly, 'run-2.csv')}:2: a solved row has no cpu_ms`]);
    expect(await buildHistoryPage(h)).toContain(`wall time (time_ms) — ${join(partly, 'run-2.csv')}:2: a solved row has no cpu_ms`);
    await expect(historyOf(partly, 'cpu')).rejects.toThrow(UsageError);
    expect((await historyOf(dir, 'wall')).basis).toBe('wall');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildHistory, collect, DEFAULT_HISTORY_OPTIONS } from '../../harness/history/history.js';
import { runRows, writeRun } from '../fixtures/history/synthetic.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('history-order');

/** A git repository with three empty commits; their 12-digit short hashes, oldest first. */
function repository(): { repo: string; commits: string[] } {
  const repo = tmp();
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, encoding: 'utf8' }).trim();
  git('init', '-q');
  const commits = ['one', 'two', 'three'].map((message) => {
    git('commit', '-q', '--allow-empty', '-m', message);
    return git('rev-parse', '--short=12', 'HEAD');
  });
  return { repo, commits };
}

/** Runs of each commit, started in an order unlike git's (the newest commit ran first). */
const runsOf = (commits: string[]) => [
  { commit: commits[2]!, startedAt: '2026-03-01T00:00:00.000Z' },
  { commit: commits[0]!, startedAt: '2026-03-02T00:00:00.000Z' },
  { commit: `${commits[1]!}-dirty`, startedAt: '2026-03-03T00:00:00.000Z' },
  { commit: commits[1]!, startedAt: '2026-03-04T00:00:00.000Z' },
];

function writeRuns(dir: string, runs: { commit: string; startedAt: string }[], names: string[]): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  runs.forEach((r, i) => writeRun(join(dir, names[i]!), runRows({ ...r, runId: `run${i}`, configs: { sat: 1 }, puzzles: [0, 1], reps: 1, seed: i })));
}

describe('the order of commits', () => {
  const { repo, commits } = repository();
  const byGit = [commits[0], commits[1], `${commits[1]}-dirty`, commits[2]];

  it("follows git's history (a -dirty point right after its commit), whatever order the files are named or run in", async () => {
    const dir = join(tmp(), 'runs');
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(['a.csv', 'b.csv', 'c.csv', 'd/e.csv'], { minLength: 4 }), async (names) => {
        writeRuns(dir, runsOf(commits), names);
        const h = await buildHistory(collect([dir]), { ...DEFAULT_HISTORY_OPTIONS, cwd: repo });
        expect(h.commits.map((c) => c.label)).toEqual(byGit);
        expect(h.order).toBe('git (rev-list order)');
      }),
      { numRuns: 8 },
    );
  });

  it('falls back to the order the commits were first run in, saying why, when a commit is not in the repository or there is none', async () => {
    const dir = join(tmp(), 'runs');
    writeRuns(dir, [...runsOf(commits), { commit: 'deadbeef0000', startedAt: '2026-02-01T00:00:00.000Z' }], ['1.csv', '2.csv', '3.csv', '4.csv', '5.csv']);
    // A -dirty point right after its commit here too, both where the commit first ran (its -dirty run).
    const byTime = ['deadbeef0000', commits[2], commits[0], commits[1], `${commits[1]}-dirty`];
    const h = await buildHistory(collect([dir]), { ...DEFAULT_HISTORY_OPTIONS, cwd: repo });
    expect(h.commits.map((c) => c.label)).toEqual(byTime);
    expect(h.order).toBe('by first run (earliest started_at): commit deadbeef0000 is not in the git repository here');
    const elsewhere = await buildHistory(collect([dir]), { ...DEFAULT_HISTORY_OPTIONS, cwd: tmp() });
    expect(elsewhere.commits.map((c) => c.label)).toEqual(byTime);
    expect(elsewhere.order).toMatch(/not in a git repository|git is not installed/);
  });

  it('puts a -dirty point right after its commit when ordering by first run, though another commit ran between them', async () => {
    const dir = join(tmp(), 'runs');
    const runs = [
      { commit: 'aaaa00000001', startedAt: '2026-03-01T00:00:00.000Z' },
      { commit: 'bbbb00000002', startedAt: '2026-03-02T00:00:00.000Z' },
      { commit: 'aaaa00000001-dirty', startedAt: '2026-03-03T00:00:00.000Z' },
    ];
    writeRuns(dir, runs, ['1.csv', '2.csv', '3.csv']);
    const h = await buildHistory(collect([dir]), { ...DEFAULT_HISTORY_OPTIONS, cwd: tmp() });
    expect(h.commits.map((c) => c.label)).toEqual(['aaaa00000001', 'aaaa00000001-dirty', 'bbbb00000002']);
  });
});

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { NO_COMMIT, type CommitInfo } from './collect.js';

/**
 * The order of a history's commits: git's, when every commit is found in the repository of the
 * working directory (`git rev-list --all --topo-order`, oldest first: a commit after its parents),
 * else the order in which they were first run (earliest started_at). A `-dirty` point (uncommitted
 * changes on top of a commit) comes right after its commit.
 */

export interface CommitOrder {
  commits: CommitInfo[];
  /** How they were ordered, and why not by git when not. */
  how: string;
}

const run = promisify(execFile);

/** Every commit of the repository at `cwd`, oldest first, or why there are none. */
async function revList(cwd: string): Promise<string[] | { why: string }> {
  try {
    const { stdout } = await run('git', ['rev-list', '--all', '--topo-order', '--reverse'], { cwd, maxBuffer: 1 << 30, timeout: 60_000 });
    return stdout.split('\n').filter((line) => line !== '');
  } catch (err) {
    return { why: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed' : 'the working directory is not in a git repository' };
  }
}

/** The one full hash in `sorted` starting with `prefix`, or undefined when none or several do. */
function locate(sorted: readonly string[], prefix: string): string | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  if (!sorted[lo]?.startsWith(prefix) || sorted[lo + 1]?.startsWith(prefix)) return undefined;
  return sorted[lo];
}

/** By first run: earliest started_at first (unknown last), then by label. */
function byTime(a: CommitInfo, b: CommitInfo): number {
  if (a.firstStarted !== b.firstStarted) {
    if (a.firstStarted === '') return 1;
    if (b.firstStarted === '') return -1;
    return a.firstStarted < b.firstStarted ? -1 : 1;
  }
  return a.label < b.label ? -1 : a.label > b.label ? 1 : 0;
}

/**
 * By first run, a commit's clean and `-dirty` points together: both at the commit's first run (of
 * either), the clean one first, so that a -dirty point comes right after its commit as in git's order.
 */
function byCommitFirstRun(commits: readonly CommitInfo[]): CommitInfo[] {
  const first = new Map<string, CommitInfo>();
  for (const c of commits) {
    const seen = first.get(c.base);
    if (seen === undefined || byTime(c, seen) < 0) first.set(c.base, c);
  }
  return [...commits].sort((a, b) => byTime(first.get(a.base)!, first.get(b.base)!) || Number(a.dirty) - Number(b.dirty));
}

/** The commits in history order (see the top of this file); git runs in `cwd`. */
export async function orderCommits(commits: readonly CommitInfo[], cwd = process.cwd()): Promise<CommitOrder> {
  const timeOrder = (why: string): CommitOrder => ({ commits: byCommitFirstRun(commits), how: `by first run (earliest started_at): ${why}` });
  const bases = [...new Set(commits.map((c) => c.base))];
  const unnamed = bases.find((b) => b === NO_COMMIT || !/^[0-9a-f]{4,40}$/i.test(b));
  if (unnamed !== undefined) return timeOrder(unnamed === NO_COMMIT ? 'some rows have no git_commit' : `"${unnamed}" is not a commit hash`);
  const all = await revList(cwd);
  if (!Array.isArray(all)) return timeOrder(all.why);
  const position = new Map(all.map((hash, i) => [hash, i]));
  const sorted = [...all].sort();
  const at = new Map<string, number>();
  for (const base of bases) {
    const hash = locate(sorted, base.toLowerCase());
    if (hash === undefined) return timeOrder(`commit ${base} is not in the git repository here`);
    at.set(base, position.get(hash)!);
  }
  const key = (c: CommitInfo) => at.get(c.base)! * 2 + (c.dirty ? 1 : 0);
  return { commits: [...commits].sort((a, b) => key(a) - key(b)), how: 'git (rev-list order)' };
}

import { Interrupted, runChild } from './child.js';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { Failure, thrownMessage } from '../io/thrown.js';

/**
 * Builds of nonobench at given commits, each made once in a git worktree of its own under a cache
 * folder keyed by the full commit hash, and reused by every later `ab` or `bench-check --ab`.
 */

/** A checkout that can run: its folder and its CLI. */
export interface Build {
  /** What the user asked for (`HEAD~1`, `working tree`). */
  label: string;
  /** The full commit hash, with `-dirty` for a working tree with uncommitted changes. */
  commit: string;
  dir: string;
  cli: string;
}

/** A ref that names a commit but could not be built (a failing `npm run build`, `npm ci` without a network): a failure, exit 1. */
export class BuildFailure extends Failure {
  constructor(label: string, cause: unknown) {
    super(`${label}: its build failed: ${thrownMessage(cause)}`);
  }
}

/** Runs the steps of a build; anything they throw but an interrupt is a BuildFailure naming the ref. */
async function building<T>(label: string, steps: () => Promise<T>): Promise<T> {
  try {
    return await steps();
  } catch (err) {
    throw err instanceof Interrupted ? err : new BuildFailure(label, err);
  }
}

/** Marks a finished build: a folder without it was left by a build that failed or was killed. */
const BUILT_MARK = '.nonobench-build';

export const cliOf = (dir: string) => join(dir, 'dist', 'harness', 'cli.js');

/** Where builds are kept: $NONOBENCH_CACHE, else $XDG_CACHE_HOME/nonobench/builds, else ~/.cache/nonobench/builds. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NONOBENCH_CACHE) return resolve(env.NONOBENCH_CACHE);
  return join(env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'nonobench', 'builds');
}

/** Runs a program to its end; resolves its stdout, rejects with the last lines of its output (or Interrupted). */
export async function runQuiet(command: string, args: readonly string[], cwd: string): Promise<string> {
  const end = await runChild(command, args, cwd, true);
  if (end.stoppedBy) throw new Interrupted(end.stoppedBy);
  if (end.code === 0) return end.stdout;
  const how = end.signal ? `was killed by ${end.signal}` : `exited with ${end.code}`;
  const tail = [end.stdout.trim().split('\n').slice(-3).join(' | '), end.stderrTail].filter(Boolean).join(' | ');
  throw new Error(`\`${[command, ...args].join(' ')}\` in ${cwd} ${how}${tail ? `: ${tail}` : ''}`);
}

const git = (root: string, ...args: string[]) => runQuiet('git', args, root).then((s) => s.trim());

/** The top folder of the git checkout holding `cwd`, which must be a nonobench checkout. */
export async function nonobenchCheckout(cwd: string): Promise<string> {
  let root: string;
  try {
    root = await git(cwd, 'rev-parse', '--show-toplevel');
  } catch {
    throw new Error(`${cwd}: not inside a git checkout (ab builds commits of a nonobench checkout)`);
  }
  let name: unknown;
  try {
    name = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown }).name;
  } catch {}
  if (name !== 'nonobench') throw new Error(`${root}: not a nonobench checkout (its package.json is not nonobench's)`);
  return root;
}

/** The full hash of the commit a ref names, or an error naming the ref. */
export async function commitOf(root: string, ref: string): Promise<string> {
  try {
    return await git(root, 'rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`);
  } catch {
    throw new Error(`${ref}: not a commit of the git checkout ${root}`);
  }
}

/**
 * The build of `commit`: from the cache when a finished one is there, else made now — a detached
 * worktree, its dependencies, `npm run build`. Concurrent callers wait for one another's build.
 */
export async function cachedBuild(root: string, ref: string, cacheDir: string, log: (line: string) => void): Promise<Build> {
  const commit = await commitOf(root, ref);
  // Absolute: git makes the worktree from the checkout's top folder, the files are looked for from here.
  const dir = join(resolve(cacheDir), commit);
  const build: Build = { label: ref, commit, dir, cli: cliOf(dir) };
  const finished = () => existsSync(join(dir, BUILT_MARK)) && existsSync(build.cli);
  if (finished()) return build;
  mkdirSync(cacheDir, { recursive: true });
  // Loaded here, not with the module: loading it takes Ctrl-C from every command (see io/output-lock.ts).
  const { default: lockfile } = await import('proper-lockfile');
  const release = await lockfile.lock(dir, { realpath: false, stale: 30_000, retries: { retries: 1200, minTimeout: 500, maxTimeout: 1000 } });
  try {
    if (finished()) return build; // built by another caller while this one waited
    log(`building ${ref} (${commit.slice(0, 12)}) in ${dir}`);
    return await building(`${ref} (${commit.slice(0, 12)})`, async () => {
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true }); // a build that did not finish
      // --force also takes the place of a worktree of this path that git still records but whose folder is gone.
      await git(root, 'worktree', 'add', '--detach', '--force', dir, commit);
      await installDependencies(root, dir);
      await runQuiet('npm', ['run', 'build', '--silent'], dir);
      if (!existsSync(build.cli)) throw new Error(`it made no ${build.cli}`);
      writeFileSync(join(dir, BUILT_MARK), `${commit}\n`);
      return build;
    });
  } finally {
    await release();
  }
}

/**
 * The dependencies of a build: when its lockfile is the checkout's own, the checkout's installed
 * packages are linked file by file (hard links: no network, a second or two); else `npm ci`.
 */
async function installDependencies(root: string, dir: string): Promise<void> {
  const lock = (d: string) => readFileSync(join(d, 'package-lock.json'), 'utf8');
  const sameLock = existsSync(join(dir, 'package-lock.json')) && existsSync(join(root, 'package-lock.json')) && lock(dir) === lock(root);
  if (sameLock && existsSync(join(root, 'node_modules'))) {
    try {
      await runQuiet('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')], dir);
      return;
    } catch {
      // Another file system (no hard links across it): a plain copy.
      rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
      cpSync(join(root, 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      return;
    }
  }
  await runQuiet('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
}

/** The working tree itself, built in place (its commit gets `-dirty` when it has uncommitted changes). */
export async function workingTreeBuild(root: string, log: (line: string) => void): Promise<Build> {
  const head = await commitOf(root, 'HEAD');
  const dirty = (await git(root, 'status', '--porcelain', '--untracked-files=no')) !== '';
  log(`building the working tree in ${root}`);
  await building('the working tree', () => runQuiet('npm', ['run', 'build', '--silent'], root));
  return { label: 'working tree', commit: dirty ? `${head}-dirty` : head, dir: root, cli: cliOf(root) };
}

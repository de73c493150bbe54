import { execFileSync, type ExecFileSyncOptionsWithStringEncoding } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { cpus } from 'node:os';
import { PACKAGE_ROOT } from '../../corpus/paths.js';
import type { RunEnvironment } from '../results/row.js';
import { VERSION } from './version.js';


/**
 * The commit of the nonobench checkout (with `-dirty` when it has uncommitted changes), or '' when
 * nonobench is not itself a git checkout: installed under another project's node_modules, git would
 * otherwise answer for that project.
 */
function gitCommit(): string {
  try {
    const opts: ExecFileSyncOptionsWithStringEncoding = { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' };
    const [top, head] = execFileSync('git', ['rev-parse', '--show-toplevel', '--short=12', 'HEAD'], opts).trim().split('\n');
    if (!top || !head || realpathSync(top) !== realpathSync(PACKAGE_ROOT)) return '';
    // Read only: a status refreshing the index would write .git/index.lock, and one killed midway (a
    // file-size limit, `ulimit -f`) leaves it behind and stops every later git command in the checkout.
    const dirty = execFileSync('git', ['--no-optional-locks', 'status', '--porcelain', '--untracked-files=no'], opts).trim() !== '';
    return dirty ? `${head}-dirty` : head;
  } catch {
    return '';
  }
}

export function runEnvironment(now = new Date()): RunEnvironment {
  return {
    run_id: `${now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`,
    started_at: now.toISOString(),
    nonobench_version: VERSION,
    git_commit: gitCommit(),
    node_version: process.version,
    cpu_model: cpus()[0]?.model.trim() ?? '',
  };
}

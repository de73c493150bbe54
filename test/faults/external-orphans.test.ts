import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { DANCER_ROWS, executable, runDefinitionIn } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// A harness killed with SIGKILL runs no exit handler: its external solvers must still be stopped,
// or they would eat the CPU of the benchmarks after it for as long as they run.

const dir = tempDirs('orphans');
requireBuiltCli();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie waits only for its parent to reap it: it runs no more.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** The live processes whose environment holds `marker`: all the harness started (the solvers, the reaper), as they inherit it. */
function marked(marker: string): { pid: number; cmdline: string }[] {
  const found = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'latin1').includes(`${marker}\0`) || !alive(Number(name))) continue;
      found.push({ pid: Number(name), cmdline: readFileSync(`/proc/${name}/cmdline`, 'latin1').replace(/\0/g, ' ') });
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(25)) if (condition()) return true;
  return condition();
}

describe.runIf(process.platform === 'linux')('a harness killed with SIGKILL', () => {
  it("leaves none of its external solvers' processes running, and its reaper ends too", async () => {
    const d = dir();
    // The harness's temp folder, where the scratch folders of its solvers go.
    const tmp = join(d, 'tmp');
    mkdirSync(tmp);
    const solverPid = join(d, 'solver.pid');
    const escapeePid = join(d, 'escapee.pid');
    // A solver that sleeps for a minute, and a grandchild of it in a session of its own (out of its process group).
    const program = executable(
      d,
      'sleeper.sh',
      `#!/bin/sh\nsetsid sleep 61 &\necho $! > '${escapeePid}.tmp'; mv '${escapeePid}.tmp' '${escapeePid}'\necho $$ > '${solverPid}.tmp'; mv '${solverPid}.tmp' '${solverPid}'\nexec sleep 60\n`,
    );
    const definition = join(d, 'bench.yaml');
    writeFileSync(definition, `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]\nconfigurations:\n  - { name: sleeper, command: "${program} {puzzle}", input: non, output: grid }\ntimeout: 120\nwarmup: 0\n`);
    const marker = `NONOBENCH_ORPHANS_TEST=${randomBytes(8).toString('hex')}`;
    const [key, value] = marker.split('=') as [string, string];
    const harness = spawn(process.execPath, [CLI, 'run', '--config', definition, '--out', join(d, 'run.csv'), '--quiet'], {
      stdio: 'ignore',
      env: { ...process.env, [key]: value, TMPDIR: tmp },
    });
    try {
      expect(await until(() => existsSync(solverPid) && existsSync(escapeePid), 4000)).toBe(true);
      const pids = [solverPid, escapeePid].map((file) => Number(readFileSync(file, 'utf8')));
      expect(pids.map(alive)).toEqual([true, true]);
      const reapers = marked(marker).filter((p) => /reaper\.js/.test(p.cmdline)).length;
      harness.kill('SIGKILL');
      expect(await until(() => !pids.some(alive), 3000)).toBe(true);
      // One reaper, and it ends with the solvers: nothing the harness started is left, nor their folders.
      expect(reapers).toBe(1);
      expect(await until(() => marked(marker).length === 0, 2000) || marked(marker)).toBe(true);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      harness.kill('SIGKILL');
      for (const { pid } of marked(marker)) process.kill(pid, 'SIGKILL');
    }
  }, 10_000);

  it("spares a listed group that is no longer the task's (its id reused), but removes the dead harness's folders", async () => {
    const d = dir();
    // A process group of someone else's, without the task's token: what a group id reused since looks like.
    const stranger = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const reaper = spawn(process.execPath, ['dist/harness/external/reaper.js'], { stdio: ['pipe', 'ignore', 'ignore'] });
    try {
      reaper.stdin.end(`${JSON.stringify({ pgid: stranger.pid, token: '0123456789abcdef', dirs: [d] })}\n`);
      const code = await new Promise((done) => reaper.on('exit', done));
      expect(code).toBe(0);
      expect(alive(stranger.pid!)).toBe(true);
      // The folders were the harness's, whoever holds the group id now.
      expect(existsSync(d)).toBe(false);
    } finally {
      stranger.kill('SIGKILL');
      reaper.kill('SIGKILL');
    }
  });
});

describe.runIf(process.platform === 'linux')('an external solver that exits', () => {
  it('has killed with it a grandchild that left its process group and cleared its environment, but works in its folder', async () => {
    const d = dir();
    const escapeePid = join(d, 'escapee.pid');
    // In a session of its own, without the task's mark: neither its group nor its environment finds it.
    const program = executable(
      d,
      'escaper.sh',
      `#!/bin/sh
setsid env -i /bin/sh -c 'echo $$ > "$0.tmp"; mv "$0.tmp" "$0"; exec sleep 62' '${escapeePid}' </dev/null >/dev/null 2>&1 &
while [ ! -e '${escapeePid}' ]; do sleep 0.05; done
printf '${DANCER_ROWS.join('\\n')}\\nunique\\n'
`,
    );
    let pid: number | undefined;
    try {
      const r = runDefinitionIn(d, `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]\nconfigurations:\n  - { name: escaper, command: "${program}", input: non, output: grid }\ntimeout: 20\n`);
      expect(r.rows().map((row) => [row.status, row.verified, row.error])).toEqual([['unique', 'true', '']]);
      pid = Number(readFileSync(escapeePid, 'utf8'));
      expect(await until(() => !alive(pid!), 2000)).toBe(true);
    } finally {
      if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 20_000);
});

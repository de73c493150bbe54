import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { CLI, requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { canMountPrivately, inPrivateMount } from '../helpers/private-mount.js';

// A run never destroys or corrupts data: the file it writes is touched only once there is a row,
// never by two runs at once, and keeps every finished row whatever happens to stdout, stderr or the
// process itself.

const dir = tempDirs('faults');
requireBuiltCli();

const TINY = resolve('test/fixtures/harness/tiny.json');
const CHATTY = resolve('test/fixtures/faults/chatty.mjs');
/** A puzzle whose CNF (about 480 KiB) is far larger than the small files and disks below take. */
const BIG_CNF_PUZZLE = resolve('corpus/puzzles/webpbn/529.non');
const taskKeys = (file: string) =>
  parseCsv(readFileSync(file, 'utf8'))
    .records.map((r) => `${r.puzzle_id}|${r.config}|${r.rep}`)
    .sort();

/** Starts `nonobench ARGS…` and resolves with its exit code, signal and output once it ends. */
function start(args: string[], options: { stdout?: 'pipe' | 'ignore' | number; stderr?: 'pipe' | 'ignore' | number; cwd?: string } = {}) {
  const child = spawn(process.execPath, [resolve(CLI), ...args], { stdio: ['ignore', options.stdout ?? 'pipe', options.stderr ?? 'pipe'], cwd: options.cwd ?? process.cwd() });
  let err = '';
  child.stderr?.on('data', (d) => (err += d));
  child.stdout?.on('data', () => {});
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string }>((done) => child.on('close', (code, signal) => done({ code, signal, err })));
  return { child, ended };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A plugin whose solve says it started (a file at param `ready`), then blocks reading the named pipe at param `pipe`, which no one writes. */
function blockedPlugin(d: string) {
  const pipe = join(d, 'pipe');
  execFileSync('mkfifo', [pipe]);
  const ready = join(d, 'ready');
  const plugin = join(d, 'blocked.mjs');
  writeFileSync(plugin, "import { readFileSync, writeFileSync } from 'node:fs';\nexport default { name: 'blocked', solve(p, o) { writeFileSync(o.params.ready, ''); readFileSync(o.params.pipe); throw new Error('unreachable'); } };\n");
  return { pipe, ready, plugin };
}

/** Ctrl-C to a started process (and `then` a moment later); how it ended (SIGKILL after 5 s, should they not end it). */
async function interrupt(started: ReturnType<typeof start>, then?: NodeJS.Signals) {
  started.child.kill('SIGINT');
  if (then) {
    await sleep(200);
    started.child.kill(then);
  }
  const guard = setTimeout(() => started.child.kill('SIGKILL'), 5000);
  const ended = await started.ended;
  clearTimeout(guard);
  return ended;
}

describe('a run never destroys or corrupts data', () => {
  it('leaves an existing --out untouched when no puzzle can be read', () => {
    const out = join(dir(), 'keep.csv');
    writeFileSync(out, 'precious,data\n1,2\n');
    const r = runCli('run', 'corpus/puzzles/webpbn/nope.non', '--out', out, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/nope\.non/);
    expect(readFileSync(out, 'utf8')).toBe('precious,data\n1,2\n');
    // And says so, instead of "0 tasks recorded in keep.csv" under an empty table.
    expect(r.out).toBe(`no task was recorded: ${out} is left as it was\n`);
    const absent = join(dir(), 'absent.csv');
    expect(runCli('run', 'corpus/puzzles/webpbn/nope.non', '--out', absent).out).toBe(`no task was recorded: ${absent} was not written\n`);
    expect(existsSync(absent)).toBe(false);
  });

  it('keeps solving and recording when stdout is closed early, while a plugin logs', async () => {
    const out = join(dir(), 'run.csv');
    const run = start(['run', TINY, '--strategies', `${CHATTY},backtrack`, '--out', out, '--quiet', '--workers', '2']);
    run.child.stdout!.destroy(); // as `| head -1` does once it has its line
    const { code, signal } = await run.ended;
    expect([code, signal]).toEqual([0, null]);
    expect(taskKeys(out)).toHaveLength(16);
  });

  it('keeps solving and recording when stderr is closed, or stdout is a full disk', async () => {
    const closedErr = join(dir(), 'a.csv');
    const a = start(['run', TINY, '--strategies', CHATTY, '--out', closedErr, '--workers', '2']);
    a.child.stderr!.destroy();
    expect((await a.ended).code).toBe(0);
    expect(taskKeys(closedErr)).toHaveLength(8);

    const full = join(dir(), 'b.csv');
    const devFull = openSync('/dev/full', 'w');
    try {
      const b = start(['run', TINY, '--strategies', CHATTY, '--out', full, '--quiet'], { stdout: devFull });
      const { code, err } = await b.ended;
      expect(err).not.toMatch(/at .*\.js:\d+/); // no stack trace
      expect(code).toBe(0);
    } finally {
      closeSync(devFull);
    }
    expect(taskKeys(full)).toHaveLength(8);
  });

  it.skipIf(!canMountPrivately)('stops with one line and exit 1 when its CSV meets a full disk, keeping every row written before', () => {
    const d = dir();
    const disk = join(d, 'disk');
    mkdirSync(disk);
    // A 16 KiB disk of its own (a tmpfs in a private mount namespace) holds about 40 of the 72 rows.
    const script = `mount -t tmpfs -o size=16k tmpfs ${disk} && ${process.execPath} ${resolve(CLI)} run ${TINY} --strategies backtrack,sat,overlap --repeat 3 --out ${disk}/run.csv --quiet >/dev/null; echo "exit $?" >&2; cat ${disk}/run.csv`;
    const r = inPrivateMount(script);
    expect(r.stderr).toMatch(/^nonobench: cannot write .*run\.csv \(.*ENOSPC.*\): the rows recorded before are kept; --resume .* goes on once it can be written\nexit 1\n$/);
    const rows = parseCsv(r.stdout).records;
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(72);
    for (const row of rows) expect(row.status).toMatch(/^(unique|multiple|stuck)$/);
  });

  it('writes to a device such as /dev/null without failing at the end', () => {
    const r = runCli('run', TINY, '--strategies', 'backtrack', '--out', '/dev/null', '--quiet');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('refuses a second run writing the same file with one line, and the first run finishes whole', async () => {
    const out = join(dir(), 'shared.csv');
    const first = start(['run', TINY, '--strategies', CHATTY, '--param', 'waitMs=150', '--out', out, '--quiet', '--workers', '1']);
    while (!existsSync(`${out}.lock`)) await sleep(20);
    const second = runCli('run', TINY, '--strategies', 'backtrack', '--out', out, '--quiet');
    expect(second.code).toBe(2);
    expect(second.err.trim().split('\n')).toEqual([expect.stringMatching(/shared\.csv: another nonobench run is writing it/)]);
    expect((await first.ended).code).toBe(0);
    expect(taskKeys(out)).toHaveLength(8);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it('a killed run leaves no lock that outlives it: a stale one is taken over', async () => {
    const out = join(dir(), 'killed.csv');
    const first = start(['run', TINY, '--strategies', CHATTY, '--param', 'waitMs=300', '--out', out, '--quiet', '--workers', '1']);
    while (!existsSync(`${out}.lock`)) await sleep(20);
    first.child.kill('SIGKILL');
    await first.ended;
    expect(runCli('run', TINY, '--strategies', 'backtrack', '--out', out, '--quiet').code).toBe(2);
    // What ten seconds without the dead run's refresh do to its lock.
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${out}.lock`, old, old);
    const again = runCli('run', TINY, '--strategies', 'backtrack', '--resume', out, '--quiet');
    expect(again.err).toBe('');
    expect(again.code).toBe(0);
  });

  describe('interrupted at a random point', () => {
    // Cold threads: each restart would otherwise pay its threads' warm-up, which is not what is tested here.
    const args = ['run', TINY, '--strategies', `${CHATTY},backtrack`, '--param', 'waitMs=40', '--repeat', '2', '--workers', '2', '--warmup', '0', '--quiet'];
    /** The run uninterrupted, which the tests below only read: what each resumed run must end up holding. */
    let clean = '';
    beforeAll(() => {
      clean = join(dir(), 'clean.csv');
      expect(runCli(...args, '--out', clean).code).toBe(0);
    });

    it.each([
      ['SIGINT', 130],
      ['SIGTERM', 143],
      ['SIGKILL', null],
    ] as const)('after %s at a random point, --resume completes the run: nothing lost, nothing twice', async (signal, exitCode) => {
      const d = dir();
      // Once at any moment from the start, once at a moment after the first row is recorded.
      for (const [delay, afterFirstRow] of [[100 + Math.floor(Math.random() * 600), false], [Math.floor(Math.random() * 300), true]] as const) {
        const out = join(d, `${signal}-${delay}-${afterFirstRow}.csv`);
        const run = start([...args, '--out', out]);
        if (afterFirstRow) while (!existsSync(out)) await sleep(5);
        await sleep(delay);
        run.child.kill(signal);
        const ended = await run.ended;
        // A signal that comes while Node is still starting ends it by the signal itself, before any row.
        const early = ended.signal === signal && !existsSync(out);
        if (ended.code !== 0 && !early) {
          expect(ended.code).toBe(exitCode);
          if (signal !== 'SIGKILL') expect(ended.err).toMatch(new RegExp(`interrupted by ${signal}: (the [1-9]\\d* rows finished are in .*--resume|no row was finished, and .* is left as it was)`));
          expect(ended.err).not.toMatch(/out of range|ERR_/);
        }
        // A SIGKILLed run's lock stays until it is stale (10 s): age it rather than wait.
        if (signal === 'SIGKILL' && existsSync(`${out}.lock`)) utimesSync(`${out}.lock`, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
        const resumed = runCli(...args, '--resume', out);
        expect(resumed.code).toBe(0);
        expect(taskKeys(out)).toEqual(taskKeys(clean));
      }
    }, 60_000);
  });

  it.skipIf(process.platform === 'win32')('ends on Ctrl-C while a plugin is blocked in a synchronous read of a pipe no one writes', async () => {
    const d = dir();
    const { pipe, ready, plugin } = blockedPlugin(d);
    const out = join(d, 'blocked.csv');
    const run = start(['run', `${TINY}#1`, '--strategies', plugin, '--param', `pipe=${pipe}`, '--param', `ready=${ready}`, '--warmup', '0', '--workers', '1', '--out', out, '--quiet']);
    while (!existsSync(ready)) await sleep(20);
    // Before, process.exit waited for the blocked thread for ever: only SIGKILL ended the run. A
    // SIGTERM while its threads close finds it ending: one line, one exit.
    const ended = await interrupt(run, 'SIGTERM');
    expect(ended.signal === 'SIGINT' || ended.code === 130).toBe(true);
    expect(ended.err).toMatch(/^\ninterrupted by SIGINT: no row was finished, and .*blocked\.csv is left as it was\n$/);
    expect(existsSync(`${out}.lock`)).toBe(false);
  }, 20_000);

  it.skipIf(process.platform === 'win32')('solve ends on Ctrl-C too while its plugin is blocked so, without calling it a failed solve', async () => {
    const d = dir();
    const { pipe, ready, plugin } = blockedPlugin(d);
    const solve = start(['solve', `${TINY}#1`, '--strategy', plugin, '--param', `pipe=${pipe}`, '--param', `ready=${ready}`, '--timeout', '60']);
    while (!existsSync(ready)) await sleep(20);
    const ended = await interrupt(solve);
    expect(ended.signal === 'SIGINT' || ended.code === 130).toBe(true);
    expect(ended.err.trim()).toBe('interrupted');
  }, 20_000);

  it('resumes a shard whose puzzles also sit in another file without running any twice', () => {
    const d = dir();
    for (const f of ['a', 'b']) {
      mkdirSync(join(d, f));
      cpSync(TINY, join(d, f, 't.json'));
    }
    const out = join(d, 'shard.csv');
    const args = ['run', join(d, 'a', 't.json#1-3'), join(d, 'b', 't.json#1-3'), '--strategies', 'sat', '--shard', '2/2'];
    expect(runCli(...args, '--out', out, '--quiet').code).toBe(0);
    const before = taskKeys(out);
    const again = runCli(...args, '--resume', out);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/0 tasks recorded in .* \(3 already recorded, skipped\)/);
    expect(taskKeys(out)).toEqual(before);
  });

  it('refuses a second run writing through a symbolic link to the file another run writes', async () => {
    const d = dir();
    const real = join(d, 'real.csv');
    writeFileSync(real, '');
    symlinkSync(real, join(d, 'link.csv'));
    const first = start(['run', TINY, '--strategies', CHATTY, '--param', 'waitMs=150', '--resume', real, '--quiet', '--workers', '1']);
    while (!existsSync(`${real}.lock`)) await sleep(20);
    const second = runCli('run', TINY, '--strategies', 'backtrack', '--out', join(d, 'link.csv'), '--quiet');
    expect(second.code).toBe(2);
    expect(second.err).toMatch(/another nonobench run is writing it/);
    expect((await first.ended).code).toBe(0);
    expect(taskKeys(real)).toHaveLength(8);
  });

  it('fails a command whose product is what it prints when stdout is a full disk, and not when a reader stops early', () => {
    const full = spawnSync('sh', ['-c', `${process.execPath} ${resolve(CLI)} cnf '${TINY}#1' > /dev/full`], { encoding: 'utf8' });
    expect(full.status).toBe(1);
    expect(full.stderr).toMatch(/^nonobench: the output could not be written to stdout \(ENOSPC\)\n$/);
    const head = spawnSync('sh', ['-c', `${process.execPath} ${resolve(CLI)} cnf '${TINY}#1' | head -1 >/dev/null; exit $?`], { encoding: 'utf8' });
    expect(head.stderr).toBe('');
  });

  // Node writes a stdout that is a file with one write per chunk: a write the limit or the disk cuts
  // short would be taken for whole, and the output would end early with exit 0 and no word.
  it('fails a command whose product is what it prints when a file-size limit cuts its stdout file short', () => {
    const d = dir();
    const cnf = (file: string, limit = '') => spawnSync('sh', ['-c', `${limit}exec "$0" "$@" > '${file}'`, process.execPath, resolve(CLI), 'cnf', BIG_CNF_PUZZLE], { encoding: 'utf8' });
    const whole = cnf(join(d, 'whole.cnf'));
    expect(whole.status).toBe(0);
    expect(whole.stderr).toBe('');
    // Every clause the header counts, and none cut off.
    const text = readFileSync(join(d, 'whole.cnf'), 'utf8');
    const clauses = Number(/^p cnf \d+ (\d+)$/m.exec(text)?.[1]);
    expect(clauses).toBeGreaterThan(10_000);
    expect(text.split('\n').filter((line) => line.endsWith(' 0'))).toHaveLength(clauses);
    expect(text.endsWith(' 0\n')).toBe(true);
    // A limit of 4 or 8 KiB (dash counts blocks of 512 bytes, bash of 1024), which one chunk of the CNF crosses.
    const cut = cnf(join(d, 'cut.cnf'), 'ulimit -f 8; ');
    expect(cut.stderr).toMatch(/^nonobench: the output could not be written to stdout \(EFBIG: file too large: past the file-size limit \(ulimit -f\) or the file system.s largest file\)\n$/);
    expect(cut.status).toBe(1);
  });

  it.skipIf(!canMountPrivately)('fails a command whose product is what it prints when a full disk cuts its stdout file short', () => {
    const disk = join(dir(), 'disk');
    mkdirSync(disk);
    const r = inPrivateMount(`mount -t tmpfs -o size=16k tmpfs ${disk} && exec ${process.execPath} ${resolve(CLI)} cnf ${BIG_CNF_PUZZLE} > ${disk}/out.cnf`);
    expect(r.stderr).toMatch(/^nonobench: the output could not be written to stdout \(ENOSPC\)\n$/);
    expect(r.status).toBe(1);
  });

  it('resumes from another working directory without rerunning what is recorded', () => {
    const d = dir();
    mkdirSync(join(d, 'a', 'puzzles'), { recursive: true });
    cpSync(TINY, join(d, 'a', 'puzzles', 'tiny.json'));
    const out = join(d, 'run.csv');
    const cli = resolve(CLI);
    const first = spawnSync(process.execPath, [cli, 'run', 'puzzles/tiny.json#1-4', '--strategies', 'backtrack', '--out', out, '--quiet'], { cwd: join(d, 'a'), encoding: 'utf8' });
    expect(first.status).toBe(0);
    const again = spawnSync(process.execPath, [cli, 'run', join(d, 'a', 'puzzles', 'tiny.json'), '--strategies', 'backtrack', '--resume', out], { cwd: d, encoding: 'utf8' });
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/4 tasks recorded in .* \(4 already recorded, skipped\)/);
    expect(taskKeys(out)).toHaveLength(8);
  });
});

import { appendFileSync, chmodSync, mkdirSync, existsSync, statSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockOutput, refuseIfLocked } from '../../harness/io/output-lock.js';
import { writeOutputFile } from '../../harness/io/output-path.js';
import { emitChunks } from '../../harness/cli/verdicts/compare.js';
import { CsvAppender } from '../../harness/results/csv.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { resolve } from 'node:path';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { runCorpus } from '../../harness/run/run.js';
import { testRunOptions } from '../helpers/run-options.js';
import { canMountPrivately, inPrivateMount } from '../helpers/private-mount.js';

// One writer per file: what a run holds locked no other command replaces, and a run whose file
// another process wrote, cut or removed stops rather than writing on.

const tmp = tempDirs('output-writers');
const LOCKED = /another nonobench run is writing it/;
const quiet = () => {};

describe('a file a run holds locked', () => {
  it('is replaced by no other command, whether the run has created it yet or not', () => {
    const d = tmp();
    const written = join(d, 'run.csv');
    writeFileSync(written, 'task\n0\n');
    const notYet = join(d, 'later.csv');
    const input = join(d, 'in.csv');
    writeFileSync(input, 'task\n');
    for (const out of [written, notYet]) {
      const unlock = lockOutput(out, quiet);
      try {
        expect(() => writeOutputFile(out, 'a page\n'), out).toThrow(LOCKED);
        expect(() => mergeCsvs(out, [input]), out).toThrow(LOCKED);
      } finally {
        unlock();
      }
    }
    expect(readFileSync(written, 'utf8')).toBe('task\n0\n');
    expect(existsSync(notYet)).toBe(false);
    writeOutputFile(written, 'a page\n');
    expect(readFileSync(written, 'utf8')).toBe('a page\n');
  });

  it('is not replaced by compare --out, whose output comes in pieces', () => {
    const d = tmp();
    const out = join(d, 'run.csv');
    writeFileSync(out, 'task\n0\n');
    const unlock = lockOutput(out, quiet);
    try {
      expect(() => emitChunks(['a comparison\n', 'more\n'], out)).toThrow(LOCKED);
    } finally {
      unlock();
    }
    expect(readFileSync(out, 'utf8')).toBe('task\n0\n');
  });

  it('is the file a dangling link names: locked through the link, it is locked by its own name', () => {
    const d = tmp();
    symlinkSync('target.csv', join(d, 'link.csv'));
    const unlock = lockOutput(join(d, 'link.csv'), quiet);
    try {
      expect(() => refuseIfLocked(join(d, 'target.csv'))).toThrow(LOCKED);
      expect(() => lockOutput(join(d, 'target.csv'), quiet)).toThrow(LOCKED);
    } finally {
      unlock();
    }
  });

  it('is not written by a run that lost it to another run while blocked: that run keeps its file', async () => {
    const out = join(tmp(), 'taken.csv');
    const log = Object.assign(Object.create(process.stderr), { write: () => true }) as NodeJS.WriteStream;
    const running = runCorpus(testRunOptions({ paths: ['test/fixtures/harness/tiny.json#1'], strategies: ['test/fixtures/faults/chatty.mjs'], out, log }, { workers: 1, params: { waitMs: 300 } }));
    // What another run does to the lock of a run blocked past 10 s (reading a named pipe): takes it over, then writes its rows.
    rmSync(`${out}.lock`, { recursive: true });
    mkdirSync(`${out}.lock`);
    writeFileSync(out, "task\nthe other run's rows\n");
    const result = await running;
    expect(result.exitCode).toBe(1);
    expect(result.stopped).toMatch(/another run took over its lock/);
    expect(result.stopped).not.toContain('--resume'); // it would append to the other run's rows
    expect(readFileSync(out, 'utf8')).toBe("task\nthe other run's rows\n");
    expect(existsSync(`${out}.lock`)).toBe(true); // the other run's lock, not this run's to remove
    rmSync(`${out}.lock`, { recursive: true });
  });
});

describe('a run CSV another process writes or removes', () => {
  it('takes no more rows: one line says why, and what the run wrote stays whole', () => {
    const d = tmp();
    const file = join(d, 'run.csv');
    const csv = new CsvAppender(file, ['task', 'status']);
    csv.write([0, 'unique']);
    appendFileSync(file, '1,multiple\n'); // another writer's row
    expect(() => csv.write([1, 'unique'])).toThrow('another process wrote the file while the run wrote it');
    expect(readFileSync(file, 'utf8')).toBe('task,status\n0,unique\n1,multiple\n');
    csv.close();

    const gone = join(d, 'gone.csv');
    const removed = new CsvAppender(gone, ['task']);
    removed.write([0]);
    rmSync(gone);
    expect(() => removed.write([1])).toThrow('the file was removed while the run wrote it');
    removed.close();
  });
});

describe('a replaced output', () => {
  it('written in pieces is whole or not there: a failure part way leaves the old file as it was', () => {
    const d = tmp();
    const out = join(d, 'comparison.txt');
    writeFileSync(out, 'the old comparison\n');
    function* failing() {
      yield 'a new comparison, ';
      throw new Error('ENOSPC: no space left on device, write');
    }
    expect(() => emitChunks(failing(), out)).toThrow(/ENOSPC/);
    expect(readFileSync(out, 'utf8')).toBe('the old comparison\n');
    expect(readdirSync(d)).toEqual(['comparison.txt']);
    emitChunks(['a new ', 'comparison\n'], out);
    expect(readFileSync(out, 'utf8')).toBe('a new comparison\n');
  });

  it('is whole or not there: no temporary file stays beside it', () => {
    const d = tmp();
    const page = join(d, 'report.html');
    writeOutputFile(page, 'old\n');
    chmodSync(page, 0o640);
    writeOutputFile(page, `${'x'.repeat(1 << 20)}\n`);
    expect(readFileSync(page, 'utf8')).toHaveLength((1 << 20) + 1);
    expect(readdirSync(d)).toEqual(['report.html']);
    expect(statSync(page).mode & 0o777).toBe(0o640); // its permissions kept
  });
});

describe('an output a full disk cannot take', () => {
  requireBuiltCli();
  it.skipIf(!canMountPrivately)('is one line naming it, exit 1 (a failure, not bad input), and the old file stays', () => {
    const d = tmp();
    const input = join(d, 'in.csv');
    const rows = Array.from({ length: 2000 }, (_, i) => `${i},p${i},p${i}.non,sat,1\n`);
    writeFileSync(input, `task,puzzle_id,puzzle_path,strategy,rep\n${rows.join('')}`);
    const disk = join(d, 'disk');
    // A 16 KiB disk of its own (a tmpfs in a private mount namespace), too small for the 40 KB merge.
    const script = `mkdir ${disk} && mount -t tmpfs -o size=16k tmpfs ${disk} && echo old > ${disk}/m.csv && ${process.execPath} ${resolve(CLI)} merge ${disk}/m.csv ${input}; echo "exit $?"; cat ${disk}/m.csv`;
    const r = inPrivateMount(script);
    expect(r.stderr).toBe(`nonobench: cannot write ${disk}/m.csv (ENOSPC: no space left on device, write)\n`);
    expect(r.stdout).toBe('exit 1\nold\n');
  });
});

describe('an output written at the end of long work', () => {
  requireBuiltCli();
  it.skipIf(!canMountPrivately)('is refused before the work when its folder is read-only (classify, bench)', () => {
    const d = tmp();
    const disk = join(d, 'ro');
    // A read-only file system of its own (a tmpfs in a private mount namespace): even root cannot write there.
    const cli = `${process.execPath} ${resolve(CLI)}`;
    const script = `mkdir ${disk} && mount -t tmpfs -o size=16k,ro tmpfs ${disk} && ${cli} classify corpus/puzzles/webpbn/1.non --out ${disk}/c.csv -q; echo "exit $?"; ${cli} bench -s overlap --time 1 --out ${disk}/b.csv; echo "exit $?"`;
    const r = inPrivateMount(script);
    // Nothing classified or timed first: no listing, no table, only the line and exit 2.
    expect(r.stdout).toBe('exit 2\nexit 2\n');
    expect(r.stderr).toBe(`nonobench: ${disk}: nothing can be written in this folder (EROFS), so not c.csv\nnonobench: ${disk}: nothing can be written in this folder (EROFS), so not b.csv\n`);
  });

  it.skipIf(!canMountPrivately)('is a device written in place when it is one, whatever its folder takes (/dev/null, /dev/stdout to a user)', () => {
    const d = tmp();
    const disk = join(d, 'ro');
    // A device in a read-only folder, as /dev is to anyone but root: it is written, not its folder.
    const cli = `${process.execPath} ${resolve(CLI)}`;
    const script = `mkdir ${disk} && mount -t tmpfs -o size=16k tmpfs ${disk} && touch ${disk}/null && mount --bind /dev/null ${disk}/null && mount -o remount,ro,size=16k ${disk} && ${cli} classify corpus/puzzles/webpbn/1.non --out ${disk}/null -q --workers 1 > /dev/null; echo "exit $?"`;
    const r = inPrivateMount(script);
    expect([r.stdout, r.stderr]).toEqual(['exit 0\n', '']);
  });
});

import { appendFileSync, chmodSync, existsSync, statSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockOutput, refuseIfLocked } from '../../harness/io/output-lock.js';
import { writeOutputFile } from '../../harness/io/output-path.js';
import { CsvAppender } from '../../harness/results/csv.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { tempDirs } from '../helpers/temp-dirs.js';

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

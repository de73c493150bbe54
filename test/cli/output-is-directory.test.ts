import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

requireBuiltCli();

const DANCER = 'corpus/puzzles/webpbn/1.non';
const newDir = tempDirs('output-directory');

describe('an output file option naming a directory', () => {
  it('run --out DIR is a usage error before any task runs, not exit 1 after solving', () => {
    const dir = newDir();
    const r = runCli('run', DANCER, '-s', 'overlap', '--workers', '1', '--warmup', '0', '--out', dir, '-q');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`nonobench: ${dir}: is a directory; name a file\n`);
    expect(r.out).toBe(''); // no summary: nothing was solved
    expect(readdirSync(dir)).toEqual([]);
  });

  it('merge OUT=DIR and bench --out DIR name the directory before any work, not EISDIR at its end', () => {
    const dir = newDir();
    const m = runCli('merge', dir, 'test/fixtures/csv/base.csv');
    expect([m.code, m.err]).toEqual([2, `nonobench: ${dir}: is a directory; name a file\n(see nonobench merge --help)\n`]);
    const b = runCli('bench', '-s', 'overlap', '--out', dir);
    expect([b.code, b.err, b.out]).toEqual([2, `nonobench: ${dir}: is a directory; name a file\n`, '']);
  });

  it('merge OUT under a file, or a link loop, says why in words, as before the directory check', () => {
    const m = runCli('merge', 'test/fixtures/csv/base.csv/out.csv', 'test/fixtures/csv/base.csv');
    expect(m.code).toBe(2);
    expect(m.err).not.toMatch(/ENOTDIR/);
    expect(m.err).toMatch(/^nonobench: test\/fixtures\/csv\/base\.csv: exists and is not a directory\n/);
  });

  it('ab --out DIR, ab --out-dir FILE and bench-check --out DIR are refused before any build or rerun, not after it', () => {
    const dir = newDir();
    // An unknown ref would stop ab at its first step: the outputs are checked before it.
    const a = runCli('ab', 'no-such-ref-at-all', '--cache-dir', newDir(), '--out', dir, '--', DANCER);
    expect([a.code, a.err]).toEqual([2, `nonobench: ${dir}: is a directory; name a file\n`]);
    const file = join(dir, 'file.txt');
    writeFileSync(file, '');
    const f = runCli('ab', 'no-such-ref-at-all', '--cache-dir', newDir(), '--out-dir', file, '--', DANCER);
    expect([f.code, f.err]).toEqual([2, `nonobench: --out-dir ${file}: is not a folder\n(see nonobench ab --help)\n`]);
    // A missing baseline would be said first otherwise.
    const c = runCli('bench-check', '--baseline', join(dir, 'none.csv'), '--out', dir);
    expect([c.code, c.err]).toEqual([2, `nonobench: ${dir}: is a directory; name a file\n`]);
  });

  it('convert OUT=DIR names the directory, not EISDIR', () => {
    const dir = newDir();
    const c = runCli('convert', DANCER, dir, '--format', 'json');
    expect([c.code, c.err]).toEqual([2, `nonobench: ${dir}: is a directory; name a file\n`]);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// A file-size limit (`ulimit -f`, common on shared and batch machines) makes a write past it fail with
// EFBIG and raises SIGXFSZ. Node ignores the signal, but a listener the output lock's library sets
// re-sends it with its default action, which would kill the run: it must end as on a full disk.

const dir = tempDirs('file-size-limit');
requireBuiltCli();

const TINY = resolve('test/fixtures/harness/tiny.json');
/** 8 puzzles, 3 repetitions. */
const TASKS = 24;
/** In blocks of 512 bytes (dash) or 1024 (bash): 4 or 8 KiB, under the whole run's CSV either way. */
const LIMIT_BLOCKS = 8;

describe('a file-size limit', () => {
  it('stops a run with one line naming its CSV and the limit, exit 1, every row written whole', () => {
    const out = join(dir(), 'run.csv');
    const script = `ulimit -f ${LIMIT_BLOCKS} && exec "$0" "$@"`;
    const r = spawnSync('sh', ['-c', script, process.execPath, resolve(CLI), 'run', TINY, '--strategies', 'overlap', '--repeat', '3', '--workers', '1', '--out', out, '--quiet'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.signal).toBeNull();
    expect(r.stderr).toMatch(/^nonobench: cannot write .*run\.csv \(EFBIG: file too large: past the file-size limit \(ulimit -f\)[^\n]*\): the rows recorded before are kept; --resume .* goes on once it can be written\n$/);
    expect(r.status).toBe(1);
    const text = readFileSync(out, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const csv = parseCsv(text);
    expect(csv.dropped).toBe(0);
    expect(csv.records.length).toBeGreaterThan(0);
    expect(csv.records.length).toBeLessThan(TASKS);
    // One line per row (no field holds a line break here), the header first.
    expect(text.split('\n')).toHaveLength(csv.records.length + 2);
    for (const row of csv.records) expect(row.status).toMatch(/^(unique|multiple|stuck)$/);
    // The run ended as runs do, releasing its lock.
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it('stops generate with one line naming the file and the limit, exit 1, no partial puzzle left', () => {
    const out = join(dir(), 'series');
    const script = `ulimit -f ${LIMIT_BLOCKS} && exec "$0" "$@"`;
    // A 200×200 puzzle's clues take more than 8 KiB.
    const r = spawnSync('sh', ['-c', script, process.execPath, resolve(CLI), 'generate', '--width', '200', '--height', '200', '--count', '2', '--out', out], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.signal).toBeNull();
    expect(r.stderr).toMatch(/^nonobench: cannot write .*001\.non \(EFBIG: file too large: past the file-size limit \(ulimit -f\)[^\n]*\)\n$/);
    expect(r.status).toBe(1);
    expect(readdirSync(out)).toEqual([]);
  });
});

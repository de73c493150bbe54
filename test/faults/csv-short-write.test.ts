import { readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvAppender, csvRecord, parseCsv, type WriteBytes } from '../../harness/results/csv.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// A nearly full disk makes write(2) write only part of what it is given, then fail with ENOSPC. The
// appender must write the rest of a short write, and cut a record it could not finish back off.

const tmp = tempDirs('csv-short-write');

/** A write that writes at most `most` bytes a call, and fails with ENOSPC once `room` bytes are written. */
function nearlyFullDisk(most: number, room: number): WriteBytes & { calls: number } {
  let written = 0;
  const write = ((fd: number, buffer: Uint8Array, offset: number, length: number) => {
    write.calls++;
    const n = Math.min(length, most, room - written);
    if (n <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    written += writeSync(fd, buffer, offset, n);
    return n;
  }) as WriteBytes & { calls: number };
  write.calls = 0;
  return write;
}

const ROWS = [
  ['1', 'first row', '{"a":1}'],
  ['2', 'second, with a comma', ''],
  ['3', 'third\nwith a line break', 'x'],
];

describe('short writes', () => {
  it('a short write is finished: every row is in the file whole', () => {
    const file = join(tmp(), 'short.csv');
    const write = nearlyFullDisk(5, Infinity);
    const csv = new CsvAppender(file, ['n', 'title', 'extra'], false, write);
    for (const row of ROWS) csv.write(row);
    csv.close();
    expect(write.calls).toBeGreaterThan(ROWS.length + 1); // the rows did go out in pieces
    expect(readFileSync(file, 'utf8')).toBe([['n', 'title', 'extra'], ...ROWS].map((r) => csvRecord(r)).join(''));
  });

  it('a write that fails part way is cut back, the file ends on a whole row, and nothing is glued on after it', () => {
    const file = join(tmp(), 'full.csv');
    const header = csvRecord(['n', 'title', 'extra']);
    const whole = header + csvRecord(ROWS[0]!);
    // Room for the header, the first row and half of the second.
    const write = nearlyFullDisk(4, Buffer.byteLength(whole) + 10);
    const csv = new CsvAppender(file, ['n', 'title', 'extra'], false, write);
    csv.write(ROWS[0]!);
    expect(() => csv.write(ROWS[1]!)).toThrow(/ENOSPC/);
    expect(readFileSync(file, 'utf8')).toBe(whole);
    // Later rows are refused too, rather than written after a record that may be torn.
    expect(() => csv.write(ROWS[2]!)).toThrow(/ENOSPC/);
    csv.close();
    expect(readFileSync(file, 'utf8')).toBe(whole);
    expect(parseCsv(readFileSync(file, 'utf8'))).toMatchObject({ records: [{ n: '1' }], dropped: 0 });
  });

  it('a resumed file is cut back to its own end, not to zero', () => {
    const file = join(tmp(), 'resumed.csv');
    const before = csvRecord(['n', 'title', 'extra']) + csvRecord(ROWS[0]!);
    writeFileSync(file, before);
    const csv = new CsvAppender(file, ['n', 'title', 'extra'], true, nearlyFullDisk(3, 8));
    expect(() => csv.write(ROWS[1]!)).toThrow(/ENOSPC/);
    csv.close();
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a header that cannot be written whole leaves no torn header', () => {
    const file = join(tmp(), 'header.csv');
    expect(() => new CsvAppender(file, ['n', 'title', 'extra'], false, nearlyFullDisk(2, 5))).toThrow(/ENOSPC/);
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it('a write that takes no bytes is a full disk, not a loop: the row is cut back off', () => {
    const file = join(tmp(), 'zero.csv');
    let calls = 0;
    // Writes the header, then takes nothing.
    const write: WriteBytes = (fd, buffer, offset, length) => (++calls === 1 ? writeSync(fd, buffer, offset, length) : 0);
    const csv = new CsvAppender(file, ['n', 'title', 'extra'], false, write);
    expect(() => csv.write(ROWS[0]!)).toThrow(/a write took no bytes/);
    csv.close();
    expect(calls).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(csvRecord(['n', 'title', 'extra']));
  });
});

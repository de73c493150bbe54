import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeOutputFile } from '../../harness/io/output-path.js';
import { OutputWriteError } from '../../harness/io/thrown.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// A nearly full disk: writeSync takes a few bytes at a time, then none (ENOSPC).
const disk = vi.hoisted(() => ({ bytesPerWrite: Infinity, bytesLeft: Infinity }));
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  const writeSync = (fd: number, buffer: Buffer, offset = 0, length = buffer.length - offset, position?: number | null) => {
    const n = Math.min(length, disk.bytesPerWrite, disk.bytesLeft);
    if (n === 0 && length > 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    disk.bytesLeft -= n;
    return real.writeSync(fd, buffer, offset, n, position);
  };
  return { ...real, writeSync, default: { ...real, writeSync } };
});

const tmp = tempDirs('output-short-write');
afterEach(() => {
  disk.bytesPerWrite = Infinity;
  disk.bytesLeft = Infinity;
});

describe('writing an output on a nearly full disk', () => {
  it('finishes a write that comes back short, and leaves the old file whole when the disk fills', () => {
    const d = tmp();
    const page = join(d, 'report.html');
    const text = `<p>${'é'.repeat(5000)}</p>\n`;
    disk.bytesPerWrite = 7;
    writeOutputFile(page, text);
    expect(readFileSync(page, 'utf8')).toBe(text);
    disk.bytesLeft = 4000;
    expect(() => writeOutputFile(page, `${text}more\n`)).toThrow(/ENOSPC/);
    // One line naming the file, a failure (exit 1) rather than bad input.
    expect(() => writeOutputFile(page, `${text}more\n`)).toThrow(OutputWriteError);
    expect(() => writeOutputFile(page, `${text}more\n`)).toThrow(`cannot write ${page} (ENOSPC: no space left on device, write)`);
    expect(readFileSync(page, 'utf8')).toBe(text);
    expect(readdirSync(d)).toEqual(['report.html']);
  });

  it('names the merged file a full disk could not take, and leaves it as it was', () => {
    const d = tmp();
    const input = join(d, 'in.csv');
    writeFileSync(input, 'task,puzzle_id,puzzle_path,strategy,rep\n0,a,a.non,sat,1\n1,b,b.non,sat,1\n');
    const out = join(d, 'merged.csv');
    writeFileSync(out, 'the old merge\n');
    disk.bytesLeft = 10;
    expect(() => mergeCsvs(out, [input])).toThrow(OutputWriteError);
    disk.bytesLeft = 10;
    expect(() => mergeCsvs(out, [input])).toThrow(`cannot write ${out} (ENOSPC: no space left on device, write)`);
    expect(readFileSync(out, 'utf8')).toBe('the old merge\n');
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeOutputFile } from '../../harness/io/output-path.js';
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
    expect(readFileSync(page, 'utf8')).toBe(text);
    expect(readdirSync(d)).toEqual(['report.html']);
  });
});

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeOutputFile } from '../../harness/io/output-path.js';
import { OutputWriteError } from '../../harness/io/thrown.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { Command } from 'commander';
import { registerGenerate } from '../../harness/cli/commands/generate.js';
import { generateSeries } from '../../corpus/generate.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { runCorpus } from '../../harness/run/run.js';
import { benchCheck } from '../../harness/compare/baseline.js';
import { DEFAULT_COMPARE_OPTIONS } from '../../harness/compare/compare.js';
import { testRunOptions } from '../helpers/run-options.js';

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
  // As Node's own: the bytes that fit are written, then ENOSPC from the write (not the open).
  const writeFileSync = (file: string, data: string) => {
    const bytes = Buffer.from(data, 'utf8');
    const n = Math.min(bytes.length, disk.bytesLeft);
    real.writeFileSync(file, bytes.subarray(0, n));
    disk.bytesLeft -= n;
    if (n < bytes.length) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
  };
  return { ...real, writeSync, writeFileSync, default: { ...real, writeSync, writeFileSync } };
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

  it('names the generated puzzle a full disk could not take, a failure (exit 1), and leaves no temporary file', async () => {
    const out = join(tmp(), 'series');
    const series = { width: 5, height: 5, density: 0.5, count: 3, seed: 1 };
    // Room for the first puzzle and half of the second.
    const [first, second] = generateSeries(series).map((f) => Buffer.byteLength(f.text));
    disk.bytesLeft = first! + Math.floor(second! / 2);
    const program = new Command().exitOverride();
    registerGenerate(program);
    const args = ['generate', '--width', '5', '--count', '3', '--seed', '1', '--out', out];
    const generated = program.parseAsync(args, { from: 'user' });
    await expect(generated).rejects.toThrow(OutputWriteError);
    await expect(generated).rejects.toThrow(`cannot write ${join(out, '002.non')} (ENOSPC: no space left on device, write)`);
    expect(readdirSync(out)).toEqual(['001.non']);
  });

  it("bench-check fails, saying why, when the rerun's CSV cannot take even its first row", async () => {
    const d = tmp();
    const log = Object.assign(Object.create(process.stderr), { write: () => true }) as NodeJS.WriteStream;
    const baseline = join(d, 'baseline.csv');
    await runCorpus(testRunOptions({ paths: ['test/fixtures/harness/tiny.json#1'], strategies: ['backtrack'], out: baseline, log }, { workers: 1 }));
    disk.bytesLeft = 0;
    const check = await benchCheck({ baseline, out: join(d, 'rerun.csv'), plugins: [], quiet: true, compare: DEFAULT_COMPARE_OPTIONS, log });
    expect([check.exitCode, check.run.tasksRun, check.comparison]).toEqual([1, 0, undefined]);
    expect(check.run.stopped).toMatch(/^cannot write .*rerun\.csv \(ENOSPC/);
  });
});

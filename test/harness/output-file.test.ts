import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { defaultRunsPath, writeOutputFile } from '../../harness/io/output-path.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('output-file');

describe('writeOutputFile', () => {
  it('replaces a file whole, creating its folders, and leaves nothing else beside it', () => {
    const d = dir();
    const file = join(d, 'a', 'b', 'page.html');
    writeOutputFile(file, 'first');
    writeOutputFile(file, 'second, longer');
    expect(readFileSync(file, 'utf8')).toBe('second, longer');
    expect(readdirSync(join(d, 'a', 'b'))).toEqual(['page.html']);
  });

  it('keeps the mode of the file it replaces', () => {
    const file = join(dir(), 'kept.svg');
    writeFileSync(file, 'old', { mode: 0o640 });
    writeOutputFile(file, 'new');
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

});

describe('defaultRunsPath', () => {
  it('never names the file or the lock of a run started in the same second: two runs without --out keep both CSVs', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-01-02T03:04:05.678Z'));
    const made: string[] = [];
    try {
      const first = defaultRunsPath('test-default-path-');
      expect(first).toMatch(/reports[/\\]runs[/\\]test-default-path-2031-01-02T03-04-05\.csv$/);
      mkdirSync(join(first, '..'), { recursive: true });
      writeFileSync(first, 'an earlier run of the same second\n');
      made.push(first);
      const second = defaultRunsPath('test-default-path-');
      expect(second).toBe(first.replace(/\.csv$/, '-2.csv'));
      mkdirSync(`${second}.lock`); // a run writing it, before its first row
      made.push(`${second}.lock`);
      expect(defaultRunsPath('test-default-path-')).toBe(first.replace(/\.csv$/, '-3.csv'));
    } finally {
      vi.useRealTimers();
      for (const path of made) rmSync(path, { recursive: true, force: true });
    }
  });
});

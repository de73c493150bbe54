import { existsSync, readdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCsvInput, writeCsv } from '../../harness/results/csv.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// Merge reads its inputs twice (where each record lies, then the records in task order) and replaces
// OUT at the end. What another process does in between is played here at the seams merge passes:
// making OUT's folder (after the first pass) and checking OUT's lock (before the replacement).
const seams = vi.hoisted(() => ({ afterFirstPass: undefined as (() => void) | undefined, beforeReplacing: undefined as (() => void) | undefined }));
vi.mock('../../harness/io/output-path.js', async (original) => {
  const real = await original<typeof import('../../harness/io/output-path.js')>();
  return { ...real, ensureParentDir: (path: string) => (seams.afterFirstPass?.(), real.ensureParentDir(path)) };
});
vi.mock('../../harness/io/output-lock.js', async (original) => {
  const real = await original<typeof import('../../harness/io/output-lock.js')>();
  const { readdirSync } = await import('node:fs');
  const { dirname } = await import('node:path');
  // The check before the replacement is the one made while merge's file beside OUT is there (whatever ran before).
  const replacing = (path: string) => readdirSync(dirname(path)).some((f) => f.includes('merge-'));
  return { ...real, refuseIfLocked: (path: string) => (seams.beforeReplacing && replacing(path) && seams.beforeReplacing(), real.refuseIfLocked(path)) };
});

const tmp = tempDirs('merge-changed');
const { records: BASE } = readCsvInput('test/fixtures/csv/base.csv');
const rows = (n: number, path: string) =>
  Array.from({ length: n }, (_, task) => ({ ...BASE[0]!, config: 'backtrack', task: String(task), puzzle_id: String(task).padStart(12, '0'), puzzle_path: path, rep: '1' }));

afterEach(() => {
  seams.afterFirstPass = undefined;
  seams.beforeReplacing = undefined;
});

describe('merge, when another process writes its files meanwhile', () => {
  it('refuses an input cut or replaced between its two passes, and writes nothing', () => {
    for (const change of ['cut', 'replaced'] as const) {
      const d = tmp();
      const input = join(d, 'in.csv');
      writeCsv(input, RUN_COLUMNS, rows(50, 'a.non'));
      const out = join(d, 'out.csv');
      seams.afterFirstPass = () => {
        if (change === 'cut') truncateSync(input, readFileSync(input).length - 100);
        else {
          writeCsv(join(d, 'other.csv'), RUN_COLUMNS, rows(50, 'b.non'));
          renameSync(join(d, 'other.csv'), input);
        }
      };
      expect(() => mergeCsvs(out, [input]), change).toThrow(/in\.csv:0: changed while the merge read it/);
      expect(existsSync(out), change).toBe(false);
      expect(readdirSync(d).filter((f) => f.includes('merge-')), change).toEqual([]);
    }
  });

  it('leaves OUT as another process left it when it wrote OUT while the merge ran', () => {
    const d = tmp();
    const input = join(d, 'in.csv');
    writeCsv(input, RUN_COLUMNS, rows(20, 'a.non'));
    const out = join(d, 'out.csv');
    for (const before of [undefined, 'task,rest\n']) {
      if (before === undefined) expect(existsSync(out)).toBe(false);
      else writeFileSync(out, before);
      const theirs = `${before ?? ''}a row a run appended\n`;
      seams.beforeReplacing = () => writeFileSync(out, theirs);
      expect(() => mergeCsvs(out, [input])).toThrow(/out\.csv: written by another process while the merge ran/);
      expect(readFileSync(out, 'utf8')).toBe(theirs);
      expect(readdirSync(d).filter((f) => f.includes('merge-'))).toEqual([]);
    }
    // Left alone, the same merge replaces OUT.
    seams.beforeReplacing = undefined;
    expect(mergeCsvs(out, [input])).toEqual({ rows: 20, duplicates: 0 });
  });
});

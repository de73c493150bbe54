import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('run-failures');
requireBuiltCli();

describe('the end of a run', () => {
  it('lists the first ten wrong and error rows with their messages, counts the rest, and gives the run\'s wall time', () => {
    const out = join(dir(), 'run.csv');
    const r = runCli('run', resolve('test/fixtures/harness/tiny.json'), '--strategies', `${resolve('test/fixtures/harness/wrong-answer.mjs')},backtrack`, '--repeat', '2', '--out', out, '--quiet');
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    const at = lines.indexOf('wrong and error rows (16):');
    expect(at).toBeGreaterThan(0);
    const listed = lines.slice(at + 1, at + 11);
    for (const line of listed) expect(line).toMatch(/^ {2}wrong-answer {2}\S*tiny\.json#\d {2}wrong: solution 1 fails: /);
    expect(lines[at + 11]).toBe("  … and 6 more (the CSV's error column has every message)");
    expect(r.out).toMatch(/\n32 tasks recorded in .*run\.csv in \d+\.\d s\n$/);
  });
});

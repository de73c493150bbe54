import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../corpus/errors.js';
import { csvRecord } from '../../harness/results/csv.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('merge-settings');

type Row = Partial<Record<(typeof RUN_COLUMNS)[number], string>>;

/** A shard of a run: puzzle k of every `of`, from `from`, one configuration, with the settings given. */
function shard(dir: string, name: string, from: number, settings: Row): string {
  const file = join(dir, name);
  const rows = [0, 1, 2, 3].filter((p) => p % 2 === from).map((p) => {
    const row: Row = { task: String(p), puzzle_id: `id${p}`, puzzle_path: `p${p}.non`, strategy: 'sat', config: 'fast', rep: '1', status: 'unique', verified: 'true', time_ms: '1', timeout_s: '10', max_solutions: '2', warmup: '1', params: '{"encoding":"blocks"}', strategy_file: '', ...settings };
    return RUN_COLUMNS.map((c) => row[c] ?? '');
  });
  writeFileSync(file, [RUN_COLUMNS, ...rows].map((r) => csvRecord(r)).join(''));
  return file;
}

/** The merge's error, or 'merged' with the rows it wrote. */
function merged(dir: string, a: Row, b: Row): string {
  const out = join(dir, 'all.csv');
  try {
    return `merged ${mergeCsvs(out, [shard(dir, 'a.csv', 0, a), shard(dir, 'b.csv', 1, b)]).rows}`;
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    expect(existsSync(out)).toBe(false);
    return (err as Error).message;
  }
}

describe('merge and the settings of a configuration', () => {
  it('refuses rows of one configuration run with another time limit, solution cap, warm-up, params or program, naming both rows', () => {
    const dir = tmp();
    const refusal = (setting: string, here: string, there: string) =>
      `${join(dir, 'b.csv')}:2: configuration fast ran with ${setting} ${here} here and ${there} at ${join(dir, 'a.csv')}:2: rows of runs with other settings, which merge does not pool under one name (merge them apart, or run them under different names)`;
    expect(merged(dir, {}, { timeout_s: '5' })).toBe(refusal('timeout_s', '5', '10'));
    expect(merged(dir, {}, { max_solutions: '1' })).toBe(refusal('max_solutions', '1', '2'));
    expect(merged(dir, { warmup: '0' }, {})).toBe(refusal('warmup', '1', '0'));
    expect(merged(dir, {}, { params: '{"encoding":"automaton"}' })).toBe(refusal('params', '{"encoding":"automaton"}', '{"encoding":"blocks"}'));
    const plugin = (hash: string): Row => ({ strategy: 'mine', strategy_file: `/a/mine.mjs@${hash}`, params: '{}' });
    expect(merged(dir, plugin('0123456789ab'), plugin('ba9876543210'))).toBe(refusal('program files', '/a/mine.mjs@ba9876543210', '/a/mine.mjs@0123456789ab'));
  });

  it('pools what is one setting written two ways: 10 and 10.0, no limit empty or 0, keys in another order, a plugin value as text, paths moved with the checkout, params an older version left out', () => {
    const dir = tmp();
    expect(merged(dir, { timeout_s: '10' }, { timeout_s: '10.0' })).toBe('merged 4');
    expect(merged(dir, { timeout_s: '' }, { timeout_s: '0' })).toBe('merged 4');
    expect(merged(dir, { params: '{"a":1,"b":2}' }, { params: '{"b":2,"a":1}' })).toBe('merged 4');
    expect(merged(dir, { strategy: 'mine', params: '{"tries":"5"}' }, { strategy: 'mine', params: '{"tries":5}' })).toBe('merged 4');
    const program = (root: string): Row => ({ strategy: 'external', strategy_file: `${root}/solve.py@0123456789ab`, params: `{"command":["${root}/solve.py","{puzzle}"]}` });
    expect(merged(dir, program('/home/a'), program('/scratch/b'))).toBe('merged 4');
    expect(merged(dir, { params: '' }, {})).toBe('merged 4');
    const rows = readFileSync(join(dir, 'all.csv'), 'utf8').trim().split('\n');
    expect(rows.map((r) => r.split(',')[RUN_COLUMNS.indexOf('task')])).toEqual(['task', '0', '1', '2', '3']);
  });
});

describe('merge and the program of a configuration', () => {
  it('refuses a configuration that ran one built-in strategy in one shard and another with the same params in the other, as --resume does', () => {
    const dir = tmp();
    // probe with probeScope all has backtrack's params, and a built-in's strategy_file is empty: only the strategy tells them apart.
    const params = '{"probeScope":"all","restarts":true}';
    expect(merged(dir, { strategy: 'backtrack', params }, { strategy: 'probe', params })).toBe(
      `${join(dir, 'b.csv')}:2: configuration fast ran with program the built-in strategy probe here and the built-in strategy backtrack at ${join(dir, 'a.csv')}:2: rows of runs with other settings, which merge does not pool under one name (merge them apart, or run them under different names)`,
    );
    expect(merged(dir, { strategy: 'sat' }, { strategy: 'mine', strategy_file: '/a/mine.mjs@0123456789ab' })).toMatch(/ran with program \/a\/mine\.mjs@0123456789ab here and the built-in strategy sat at /);
    // A plugin whose import outlasted the limit is named after its file: the same file is the same program.
    const plugin = (strategy: string): Row => ({ strategy, strategy_file: '/a/mine.mjs@0123456789ab', params: '{}' });
    expect(merged(dir, plugin('mine'), plugin('mine.mjs'))).toBe('merged 4');
  });

  it('names the row a params value was taken from when the first rows (an older version) had none', () => {
    const dir = tmp();
    const out = join(dir, 'all.csv');
    const a = shard(dir, 'a.csv', 0, { params: '' });
    const b = shard(dir, 'b.csv', 1, {});
    const c = shard(dir, 'c.csv', 1, { params: '{"encoding":"automaton"}', task: '5' });
    expect(() => mergeCsvs(out, [a, b, c])).toThrow(`${c}:2: configuration fast ran with params {"encoding":"automaton"} here and {"encoding":"blocks"} at ${b}:2: `);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfigItem, parseConfigList } from '../../harness/config/configurations.js';
import { parseCsv } from '../../harness/results/csv.js';
import { strategyNames } from '../../solvers/strategies/registry.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const TINY = ['test/fixtures/harness/tiny.json#1', 'test/fixtures/harness/tiny.json#2'];
const dir = tempDirs('configs');
requireBuiltCli();

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/);

describe('--strategies items', () => {
  it('read [NAME=]STRATEGY[:KEY=VALUE]… back as written', () => {
    fc.assert(
      fc.property(fc.option(word, { nil: undefined }), fc.constantFrom(...strategyNames()), fc.uniqueArray(fc.tuple(word, word), { maxLength: 3, selector: ([k]) => k }), (name, strategy, pairs) => {
        const text = `${name !== undefined ? `${name}=` : ''}${strategy}${pairs.map(([k, v]) => `:${k}=${v}`).join('')}`;
        const item = parseConfigItem(text);
        expect(item.strategy).toBe(strategy);
        expect(item.name).toBe(name);
        expect(item.params).toEqual(Object.fromEntries(pairs));
      }),
    );
  });

  it('refuse an unknown strategy, a pair without "=", an empty name, a key given twice', () => {
    expect(() => parseConfigItem('sattt')).toThrow('unknown strategy "sattt"');
    expect(() => parseConfigItem('sat:encoding')).toThrow('"encoding" is not KEY=VALUE');
    expect(() => parseConfigItem('=sat')).toThrow('an empty configuration name');
    expect(() => parseConfigItem('overlap:cache=true:cache=false')).toThrow('--strategies item "overlap:cache=true:cache=false": cache is given twice');
    expect(parseConfigList('all, sat:probe=true').map((c) => c.strategy)).toEqual([...strategyNames(), 'sat']);
  });
});

describe('configurations in a run', () => {
  it('runs several settings of one strategy side by side, each row naming its configuration and resolved params', () => {
    const out = join(dir(), 'run.csv');
    const r = runCli('run', ...TINY, '--strategies', 'sat, sat:encoding=automaton, backtrack:probing=false, plain=backtrack:probing=0:cache=off', '--out', out, '--quiet');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8')).records.sort((x, y) => Number(x.task) - Number(y.task));
    expect(rows).toHaveLength(8);
    const configs = [...new Set(rows.map((row) => row.config))];
    expect(configs).toEqual(['sat', 'sat:encoding=automaton', 'backtrack:probing=false', 'plain']);
    const paramsOf = (config: string) => JSON.parse(rows.find((row) => row.config === config)!.params!);
    expect(paramsOf('sat:encoding=automaton')).toMatchObject({ encoding: 'automaton', cellDecisions: true });
    expect(paramsOf('plain')).toMatchObject({ probing: false, cache: false });
    expect(rows.find((row) => row.config === 'plain')!.strategy).toBe('backtrack');
    for (const row of rows) expect([row.status, row.verified]).toEqual(['unique', 'true']);
    expect(r.out).toMatch(/^sat:encoding=automaton\s+2\s+2\s/m);
  });

  it('refuses two configurations of one name, and a bad value in an item, before writing anything', () => {
    const twice = runCli('run', ...TINY, '--strategies', 'sat,sat', '--out', join(dir(), 'a.csv'), '--quiet');
    expect(twice.code).toBe(2);
    expect(twice.err).toContain('configuration "sat" is listed twice (give one of them a name of its own: NAME=sat…)');
    // A name or value of any length is quoted cut to 80 characters: the message stays one short line.
    for (const args of [['--strategies', 'x'.repeat(5000)], ['--strategies', 'overlap', '--param', `${'k'.repeat(5000)}=1`], ['--strategies', 'backtrack', '--param', `probing=${'y'.repeat(5000)}`]]) {
      const long = runCli('run', ...TINY, ...args, '--out', join(dir(), 'l.csv'), '--quiet');
      expect(long.code).toBe(2);
      expect(long.err.split('\n')[0]!.length).toBeLessThan(400);
      expect(long.err).toContain('…');
    }
    const proto = runCli('run', ...TINY, '--strategies', 'backtrack:__proto__=1', '--out', join(dir(), 'p.csv'), '--quiet');
    expect(proto.code).toBe(2);
    expect(proto.err).toContain('backtrack: unknown param "__proto__"');
    const bad = runCli('run', ...TINY, '--strategies', 'sat:encoding=ladder', '--out', join(dir(), 'b.csv'), '--quiet');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('sat: param encoding must be blocks|automaton, got "ladder"');
  });

  it('merge keeps configurations of one strategy apart, and compare pairs them by configuration', () => {
    const d = dir();
    const a = join(d, 'a.csv');
    const b = join(d, 'b.csv');
    expect(runCli('run', ...TINY, '--strategies', 'sat', '--out', a, '--quiet').code).toBe(0);
    expect(runCli('run', ...TINY, '--strategies', 'sat:encoding=automaton', '--out', b, '--quiet').code).toBe(0);
    const merged = join(d, 'm.csv');
    expect(runCli('merge', merged, a, b).code).toBe(0);
    expect(parseCsv(readFileSync(merged, 'utf8')).records.map((r) => r.config).sort()).toEqual(['sat', 'sat', 'sat:encoding=automaton', 'sat:encoding=automaton']);
    const json = JSON.parse(runCli('compare', merged, merged, '--format', 'json').out);
    expect(json.pairs.map((p: { strategy: string }) => p.strategy).sort()).toEqual(['sat', 'sat', 'sat:encoding=automaton', 'sat:encoding=automaton']);
  });

  it('bench-check reruns every configuration a baseline records, with its parameters', () => {
    const d = dir();
    const base = join(d, 'base.csv');
    expect(runCli('run', ...TINY, '--strategies', 'sat, auto=sat:encoding=automaton', '--out', base, '--quiet').code).toBe(0);
    const rerun = join(d, 'rerun.csv');
    // Times of single solves are noise here: only statuses, counters and parameters are checked.
    const r = runCli('bench-check', '--baseline', base, '--run-out', rerun, '--quiet', '--min-time', '100000');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Counter changes: none');
    const rows = parseCsv(readFileSync(rerun, 'utf8')).records;
    expect(new Set(rows.map((row) => `${row.config} ${JSON.parse(row.params!).encoding}`))).toEqual(new Set(['sat blocks', 'auto automaton']));
  });
});

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';
import { CLI, requireBuiltCli, runCli } from '../helpers/cli.js';

const DANCER = 'corpus/puzzles/webpbn/1.non';
const DANCER_GOAL = '01100011010010101110101001010000110010100101111000';
const goalRows = () => DANCER_GOAL.match(/.{5}/g)!.map((r) => r.replace(/1/g, '#').replace(/0/g, '.'));

const run = runCli;

const dir = tempDirs('solve')();
requireBuiltCli();

describe('nonobench solve', () => {
  it('--json reports the status, the metrics and the goal as the solution', () => {
    const { code, out } = run('solve', DANCER, '--strategy', 'enumeration', '--json');
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(r.status).toBe('unique');
    expect(r.strategy).toBe('enumeration');
    expect(r.grid).toEqual(goalRows());
    expect(r.solutions).toEqual([goalRows()]);
    for (const f of ['cellsResolved', 'deadEnds', 'decisions', 'lineSolves', 'maxDepth', 'solutionsFound', 'timeMs'])
      expect(typeof r[f]).toBe('number');
    expect(r.cellsResolved).toBe(50);
    expect(r.solutionsFound).toBe(1);
    expect(r.extra.placementsStored).toBeGreaterThan(0);
  });

  it('passes --param and --max-solutions to the strategy', () => {
    const capped = JSON.parse(run('solve', DANCER, '-s', 'enumeration', '--json', '--param', 'maxPlacements=0').out);
    expect(capped.status).toBe('too-large');
    expect(capped.grid).toEqual(Array(10).fill('?????'));
    expect(capped.solutions).toEqual([]);
    const one = JSON.parse(run('solve', DANCER, '-s', 'enumeration', '--json', '--max-solutions', '1').out);
    expect(one.status).toBe('solved');
  });

  it('prints the picture, the status and the metrics, and writes an SVG', () => {
    const svg = join(dir, 'new', 'dancer.svg'); // its folder is made
    const { code, out } = run('solve', DANCER, '--strategy', 'enumeration', '--svg', svg);
    expect(code).toBe(0);
    expect(out).not.toContain('\x1b');
    expect(out).toContain('status: unique');
    expect(out).toMatch(/time: [\d.]+ ms/);
    expect(out).toContain('cells resolved: 50 of 50');
    expect(out).toMatch(/line solves: \d+/);
    // The goal's first row, .##.., drawn with its clue.
    expect(out).toContain('  2 ··████····\n');
    const picture = readFileSync(svg, 'utf8');
    expect(picture.startsWith('<svg')).toBe(true);
    expect(picture.split('class="filled"').length - 1).toBe(DANCER_GOAL.split('1').length - 1);
  });

  it('shows what was deduced when the strategy is stuck', () => {
    const { code, out } = run('solve', 'test/fixtures/solve/two-solutions.non', '-s', 'enumeration', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ status: 'stuck', grid: ['??', '??'], solutions: [], cellsResolved: 0 });
  });

  it('loads a strategy from a user module path', () => {
    const { code, out } = run('solve', DANCER, '--strategy', 'test/fixtures/plugins/trivial-solver.mjs', '--json');
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(r).toMatchObject({ strategy: 'trivial', status: 'unique', grid: goalRows(), extra: { delegated: 1 } });
  });

  it('gives the strategy the clues without the goal', () => {
    const { code, err } = run('solve', DANCER, '--strategy', 'test/fixtures/harness/reads-goal.mjs');
    expect(err).toBe('');
    expect(code).toBe(0);
  });

  it('reports a wrong solution and exits 1', () => {
    const { code, err } = run('solve', DANCER, '--strategy', 'test/fixtures/harness/wrong-answer.mjs');
    expect(code).toBe(1);
    expect(err).toMatch(/^wrong: solution 1 is wrong: row 1: expected 2, got 5/m);
  });

  it('judges the claim against the question asked, as run does: `solved` is wrong when uniqueness was asked', () => {
    const asked = run('solve', 'test/fixtures/solve/two-solutions.non', '-s', 'test/fixtures/harness/always-solved.mjs');
    expect(asked.code).toBe(1);
    expect(asked.err).toMatch(/^wrong: status solved when uniqueness was asked \(max solutions 2\)/m);
    const notAsked = run('solve', 'test/fixtures/solve/two-solutions.non', '-s', 'test/fixtures/harness/always-solved.mjs', '--max-solutions', '1');
    expect(notAsked.err).toBe('');
    expect(notAsked.code).toBe(0);
  });

  it('stops a strategy that never polls at the hard time limit, with one line and exit 1 (a failed solve, not bad input)', () => {
    const started = performance.now();
    const { code, err } = run('solve', DANCER, '--strategy', 'test/fixtures/harness/loop-forever.mjs', '--timeout', '0.5');
    expect(code).toBe(1);
    expect(err).toBe('nonobench: strategy loop-forever stopped at the hard time limit (1.5 s) without returning\n');
    expect(performance.now() - started).toBeLessThan(20_000); // not the spawn's 30 s limit
  });

  it('calls a result that cannot be sent a failed solve without a time limit too, though the plugin replaced structuredClone', () => {
    const r = run('solve', DANCER, '-s', 'test/fixtures/harness/unsendable-result.mjs', '--timeout', '0');
    expect([r.code, r.err]).toEqual([1, expect.stringMatching(/^nonobench: strategy unsendable failed: its result cannot be recorded: .*could not be cloned/)]);
  });

  it('calls a result that cannot be recorded a failed solve (exit 1), in a thread of its own or, without a time limit, in this one', () => {
    for (const timeout of ['0', '5']) {
      const r = spawnSync(process.execPath, [CLI, 'solve', DANCER, '-s', 'test/fixtures/harness/unsendable-result.mjs', '--timeout', timeout], { encoding: 'utf8', env: { ...process.env, ACT: 'getter' } });
      expect(r.stderr, timeout).toMatch(/^nonobench: strategy unsendable failed: its result cannot be (recorded|sent from the worker): boom getter\n$/);
      expect(r.status, timeout).toBe(1);
    }
  });

  it('calls a result of the wrong shape an error, as run records it, and a wrong answer wrong (exit 1 both)', () => {
    const FIX = 'test/fixtures/harness-robustness';
    const shape = run('solve', `${FIX}/cross.non`, '-s', `${FIX}/bad-metrics.mjs`, '--param', 'mode=negative');
    expect([shape.code, shape.err]).toEqual([1, 'error: strategy returned metrics.deadEnds = -5, not a whole number ≥ 0\n']);
    const wrong = run('solve', DANCER, '-s', 'test/fixtures/harness/wrong-answer.mjs');
    expect([wrong.code, wrong.err.split(':')[0]]).toEqual([1, 'wrong']);
  });

  it('exits 2 on bad input', () => {
    expect(run('solve', join(dir, 'missing.non'), '-s', 'enumeration').code).toBe(2);
    expect(run('solve', DANCER, '-s', 'no-such-strategy').code).toBe(2);
    expect(run('solve', DANCER, '-s', 'enumeration', '--max-solutions', '0').code).toBe(2);
    expect(run('solve', DANCER, '-s', 'enumeration', '--param', 'maxPlacements').code).toBe(2);
    const bad = run('solve', DANCER, '-s', 'enumeration', '--param', 'maxPlacements=lots');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('maxPlacements');
    // --param is read by the strategy's own parser, as run's STRATEGY:key=value is: whole numbers are plain digits.
    for (const value of ['1e1', '0x10', '1.0', '-0']) {
      const given = run('solve', DANCER, '-s', 'enumeration', '--param', `maxPlacements=${value}`);
      const inSpec = run('run', DANCER, '-s', `enumeration:maxPlacements=${value}`, '--out', join(dir, 'never.csv'), '--quiet');
      expect([given.code, given.err.split('\n')[0]], value).toEqual([2, `nonobench: enumeration: param maxPlacements must be a whole number ≥ 0, got "${value}"`]);
      expect([inSpec.code, inSpec.err.split('\n')[0]], value).toEqual([2, given.err.split('\n')[0]]);
    }
  });
});

describe('nonobench strategies', () => {
  it('lists the registered strategies, enumeration first, with descriptions', () => {
    const { code, out } = run('strategies');
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^enumeration\s+Textbook line enumeration/);
    const list = JSON.parse(run('strategies', '--json').out);
    expect(list[0]).toMatchObject({ name: 'enumeration', description: expect.stringContaining('enumeration') });
    expect(list[0].params.map((p: { name: string }) => p.name)).toEqual(['maxPlacements']);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedText, paramDeclarationProblem, ParamError, resolveParams, type ParamSpec } from '../../solvers/api/params.js';
import { SAT_PARAMS } from '../../solvers/strategies/sat.js';
import { AUTO_PARAMS } from '../../solvers/strategies/auto.js';
import { collectParam } from '../../harness/cli/options.js';
import { builtInStrategies } from '../../solvers/strategies/registry.js';
import { parseCsv } from '../../harness/results/csv.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

const TINY = 'test/fixtures/harness/tiny.json#1';
const DECLARED = 'test/fixtures/harness/declared-params.mjs';
const cli = runCli;
const dir = tempDirs('params');
requireBuiltCli();

/** A text form the CLI could give for a declared value (booleans have three spellings each). */
function textsOf(spec: ParamSpec, value: string | number | boolean): string[] {
  if (spec.type !== 'boolean') return [String(value)];
  return value ? ['true', '1', 'on'] : ['false', '0', 'off'];
}

const valueOf = (spec: ParamSpec): fc.Arbitrary<string | number | boolean> => {
  switch (spec.type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: spec.min, max: spec.max ?? spec.min + 1_000_000 });
    case 'enum':
      return fc.constantFrom(...spec.values);
  }
};

describe('declared parameters', () => {
  const declared = builtInStrategies().flatMap((s) => (s.params ?? []).map((spec) => ({ strategy: s.name, specs: s.params!, spec })));

  it('every built-in strategy declares its parameters, each with a meaning and a valid default', () => {
    for (const s of builtInStrategies()) {
      expect(s.params, s.name).toBeDefined();
      const resolved = resolveParams(s.name, s.params!, {});
      expect(Object.keys(resolved)).toEqual(s.params!.map((p) => p.name));
      for (const p of s.params!) {
        expect(p.meaning.length).toBeGreaterThan(5);
        // A default is itself a value the parser accepts.
        expect(resolveParams(s.name, s.params!, { [p.name]: resolved[p.name]! })[p.name]).toEqual(resolved[p.name]);
      }
    }
  });

  it('reads every declared value the same from its typed and its text forms', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...declared).chain((d) => valueOf(d.spec).map((v) => ({ ...d, v }))),
        ({ strategy, specs, spec, v }) => {
          expect(resolveParams(strategy, specs, { [spec.name]: v })[spec.name]).toEqual(v);
          for (const text of textsOf(spec, v)) expect(resolveParams(strategy, specs, { [spec.name]: text })[spec.name]).toEqual(v);
        },
      ),
    );
  });

  it('refuses a name no strategy declares, naming the strategy and its parameters', () => {
    fc.assert(
      fc.property(fc.constantFrom(...builtInStrategies()), fc.string({ minLength: 1, maxLength: 12 }), (s, name) => {
        fc.pre(!s.params!.some((p) => p.name === name));
        let thrown: unknown;
        try {
          resolveParams(s.name, s.params!, { [name]: 1 });
        } catch (err) {
          thrown = err;
        }
        expect(thrown).toBeInstanceOf(ParamError);
        expect((thrown as Error).message).toContain(`${s.name}: unknown param ${JSON.stringify(name)}`);
        for (const p of s.params!) expect((thrown as Error).message).toContain(p.name);
      }),
    );
  });

  it('names at most twelve params in that message, however many a strategy declares', () => {
    const specs: ParamSpec[] = Array.from({ length: 40 }, (_, i) => ({ name: `p${i}`, type: 'boolean', default: false, meaning: 'a flag' }));
    const message = (() => {
      try {
        resolveParams('many', specs, { q: 1 });
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    expect(message).toBe('many: unknown param "q" (its params: p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11 and 28 more; `nonobench strategies` describes them)');
  });

  it('reads a negative whole number from its text, where a declaration allows one, and refuses -0 and a sign on zero', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 0 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1 }).map((x) => x), (min, span, pick) => {
        const spec: ParamSpec = { name: 'offset', type: 'integer', min, max: min + span, default: min, meaning: 'a signed offset' };
        const v = pick === 0 ? min : min + span;
        expect(resolveParams('s', [spec], { offset: String(v) }).offset).toBe(v);
      }),
    );
    const signed: ParamSpec = { name: 'offset', type: 'integer', min: -10, max: 10, default: 0, meaning: 'a signed offset' };
    for (const bad of ['-0', '+3', '--2', '-', '-02', '- 2']) expect(() => resolveParams('s', [signed], { offset: bad }), bad).toThrow(ParamError);
  });

  it('refuses values outside a declaration, saying what is allowed', () => {
    const spec: ParamSpec = { name: 'n', type: 'integer', min: 2, max: 5, default: 3, meaning: 'a count' };
    for (const bad of [1, 6, 2.5, '3x', '', ' ', '-3', '0x3', '1e1', true])
      expect(() => resolveParams('s', [spec], { n: bad })).toThrow(`s: param n must be ${allowedText(spec)}`);
    const flag: ParamSpec = { name: 'f', type: 'boolean', default: false, meaning: 'a flag' };
    for (const bad of ['yes', 2, 'TRUE!', '']) expect(() => resolveParams('s', [flag], { f: bad })).toThrow(ParamError);
  });

  it('refuses a yes/no parameter set without the one it requires (sat: probe needs propagate)', () => {
    expect(() => resolveParams('sat', SAT_PARAMS, { probe: true, propagate: false })).toThrow('sat: param probe=true needs propagate=true');
    expect(resolveParams('sat', SAT_PARAMS, { probe: true }).probe).toBe(true);
    expect(resolveParams('sat', SAT_PARAMS, { probe: false, propagate: false }).propagate).toBe(false);
  });

  it("finds what is wrong in a plugin's params declaration", () => {
    const flag = (name: string, extra = {}) => ({ name, type: 'boolean', meaning: 'm', default: false, ...extra });
    expect(paramDeclarationProblem(undefined)).toBeUndefined();
    expect(paramDeclarationProblem([flag('a'), flag('b', { requires: 'a' }), { name: 'n', type: 'integer', min: 0, meaning: 'm', default: 1 }])).toBeUndefined();
    expect(paramDeclarationProblem({})).toMatch(/must be a list/);
    expect(paramDeclarationProblem([null])).toMatch(/params\[0\] must be an object/);
    expect(paramDeclarationProblem([{ ...flag('a'), name: 'a b' }])).toMatch(/name must be a word/);
    expect(paramDeclarationProblem([{ name: 'a', type: 'boolean', default: false }])).toMatch(/param a: meaning must be a string/);
    expect(paramDeclarationProblem([{ name: 'a', type: 'boolean', meaning: 'm' }])).toMatch(/param a: default is missing/);
    expect(paramDeclarationProblem([{ name: 'n', type: 'integer', min: 3, max: 1, meaning: 'm', default: 1 }])).toMatch(/max must be a number ≥ min/);
    expect(paramDeclarationProblem([flag('b', { requires: 'nope' })])).toMatch(/param b: requires must name another yes\/no param/);
    expect(paramDeclarationProblem([flag('b', { requires: 'b' })])).toMatch(/param b: requires must name another/);
    for (const name of ['constructor', 'toString', '__proto__']) expect(paramDeclarationProblem([flag(name)])).toMatch(/a name every JavaScript object has/);
    expect(paramDeclarationProblem([{ name: 'n', type: 'integer', min: 1, default: 'lots', meaning: 'm' }])).toMatch(/param n: default must be a whole number/);
    expect(paramDeclarationProblem([{ name: 'n', type: 'integer', min: 1, max: NaN, default: 1, meaning: 'm' }])).toMatch(/max must be a number ≥ min/);
    expect(paramDeclarationProblem([{ name: 'e', type: 'enum', values: ['a'], default: 'b', meaning: 'm' }])).toMatch(/param e: default must be one of its values/);
    expect(paramDeclarationProblem([flag('f', { default: 'yes' })])).toMatch(/param f: default must be true or false/);
    expect(paramDeclarationProblem([{ name: 'g', type: 'boolean', default: () => true, meaning: 'm' }])).toBeUndefined();
  });

  it('computes a dependent default from the parameters before it (sat: cellDecisions follows encoding)', () => {
    const sat = builtInStrategies().find((s) => s.name === 'sat')!;
    expect(resolveParams('sat', sat.params!, {}).cellDecisions).toBe(false);
    expect(resolveParams('sat', sat.params!, { encoding: 'automaton' }).cellDecisions).toBe(true);
    expect(resolveParams('sat', sat.params!, { encoding: 'automaton', cellDecisions: 'off' }).cellDecisions).toBe(false);
  });
});

describe('parameters on the command line', () => {
  it('refuses a key given twice in --param, and a whole number written with leading zeros, as in one STRATEGY:key=value item', () => {
    expect(() => collectParam('encoding=blocks', collectParam('encoding=automaton'))).toThrow('--param encoding is given twice');
    expect(resolveParams('auto', AUTO_PARAMS, { satShare: '10' }).satShare).toBe(10);
    for (const written of ['01', '007', '-01']) expect(() => resolveParams('auto', AUTO_PARAMS, { satShare: written })).toThrow(`auto: param satShare must be a whole number ≥ 1, got "${written}"`);
  });

  it('solve refuses a misspelt parameter in one line naming the strategy and its parameters (exit 2)', () => {
    const r = cli('solve', 'corpus/puzzles/webpbn/1.non', '--strategy', 'sat', '--param', 'encodng=automaton');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    const lines = r.err.trim().split('\n');
    expect(lines[0]).toMatch(/^nonobench: sat: unknown param "encodng" \(its params: encoding, propagate, .*; `nonobench strategies` describes them\)$/);
    expect(lines[1]).toBe('(see nonobench solve --help)');
  });

  it('run refuses a parameter none of its strategies declares, before writing anything', () => {
    const out = join(dir(), 'run.csv');
    const r = cli('run', TINY, '--strategies', 'overlap,enumeration', '--param', 'probing=false', '--out', out, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toContain('param "probing" is declared by none of the strategies run (overlap, enumeration)');
    expect(existsSync(out)).toBe(false);
  });

  it('run records each row\'s resolved parameters, defaults included, and gives a parameter only to the strategies that declare it', () => {
    const out = join(dir(), 'run.csv');
    const r = cli('run', TINY, '--strategies', `backtrack,sat,${DECLARED}`, '--param', 'probing=off', '--param', 'tries=7', '--out', out, '--quiet');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8')).records;
    const params = (name: string) => JSON.parse(rows.find((row) => row.strategy === name)!.params!);
    expect(params('backtrack')).toMatchObject({ probing: false, branch: 'lines', restartBudget: 64 });
    expect(Object.keys(params('backtrack'))[0]).toBe('probing');
    expect(params('sat')).toEqual({ encoding: 'blocks', propagate: true, probe: false, cellDecisions: false, lines: false, symmetry: true });
    expect(params('declared')).toEqual({ tries: 7, loud: false });
    expect(JSON.parse(rows.find((row) => row.strategy === 'declared')!.extra!)).toEqual({ tries: 7, loud: 0 });
  });

  it('run checks a plugin\'s declared parameters like a built-in\'s', () => {
    const r = cli('run', TINY, '--strategies', DECLARED, '--param', 'tries=12', '--out', join(dir(), 'run.csv'), '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toContain('declared: param tries must be a whole number from 1 to 9, got 12');
  });

  it('strategies lists every parameter with its allowed values and default', () => {
    const r = cli('strategies');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {4}maxPlacements +a whole number ≥ 0; default 4000000: /m);
    expect(r.out).toMatch(/^ {4}cellDecisions +true\/false, 1\/0 or on\/off; default true with encoding=automaton, else false: /m);
    const json = JSON.parse(cli('strategies', '--json').out) as { name: string; params: { name: string }[] }[];
    for (const s of builtInStrategies()) expect(json.find((j) => j.name === s.name)!.params.map((p) => p.name)).toEqual(s.params!.map((p) => p.name));
  });

  it('strategies --json gives each default in its declared type, and a computed one as its text', () => {
    const listed = JSON.parse(cli('strategies', '--json').out) as { name: string; params: { name: string; default: unknown }[] }[];
    for (const s of builtInStrategies())
      for (const spec of s.params!) {
        const shown = listed.find((j) => j.name === s.name)!.params.find((p) => p.name === spec.name)!.default;
        expect(shown, `${s.name} ${spec.name}`).toEqual(typeof spec.default === 'function' ? spec.defaultText : spec.default);
      }
    const enumeration = listed.find((j) => j.name === 'enumeration')!.params[0]!;
    expect(enumeration.default).toBe(4_000_000);
  });
});

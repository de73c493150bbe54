import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { compareRuns, DEFAULT_COMPARE_OPTIONS, statusRank, type CompareOptions, type CompareResult, type PairComparison, type RunCsv } from '../../harness/compare/compare.js';
import { formatComparison, verdictLine } from '../../harness/compare/format.js';
import type { RunRecord } from '../../harness/results/row.js';

/** One side of a pair: a status and a time (ms) per repetition. */
interface SideSpec {
  statuses: string[];
  times: number[];
}
interface PairSpec {
  base: SideSpec;
  next: SideSpec;
}

const SOLVED = new Set(['unique', 'multiple', 'solved']);

/** The records of one side of every pair; pair i is puzzle `p{i}.non`, configuration `s{i % 2}`. */
function records(pairs: PairSpec[], side: 'base' | 'next'): RunRecord[] {
  return pairs.flatMap((pair, i) =>
    pair[side].times.map(
      (t, r) =>
        ({
          puzzle_id: `id${i}`,
          puzzle_path: `p${i}.non`,
          strategy: `s${i % 2}`,
          rep: String(r + 1),
          status: pair[side].statuses[r]!,
          verified: SOLVED.has(pair[side].statuses[r]!) ? 'true' : pair[side].statuses[r] === 'wrong' ? 'false' : '',
          time_ms: t.toFixed(3),
          dead_ends: '0',
          decisions: '0',
          line_solves: '7',
        }) as unknown as RunRecord,
    ),
  );
}

const csv = (file: string, rows: RunRecord[]): RunCsv => ({ file, columns: Object.keys(rows[0]!), records: rows });
const compare = (pairs: PairSpec[], options: Partial<CompareOptions> = {}, order = (rows: RunRecord[]) => rows) =>
  compareRuns(csv('base.csv', order(records(pairs, 'base'))), csv('new.csv', order(records(pairs, 'next'))), { ...DEFAULT_COMPARE_OPTIONS, ...options });

/** A time in ms with at most three decimals, as a run CSV holds it. */
const timeMs = (min: number, max: number) => fc.integer({ min: min * 1000, max: max * 1000 }).map((x) => x / 1000);
const unique = (times: number[]): SideSpec => ({ statuses: times.map(() => 'unique'), times });
const options = fc.record({
  threshold: fc.double({ min: 0, max: 0.9, noNaN: true }),
  confidence: fc.double({ min: 0.5, max: 0.999, noNaN: true }),
  minTimeMs: fc.double({ min: 0, max: 5, noNaN: true }),
});

describe('compare: fewer than 3 repetitions a side', () => {
  it('never gives a time regression or a FAIL, whatever the times', () => {
    const side = (n: number) => fc.array(timeMs(0, 10_000), { minLength: n, maxLength: n });
    const pair = fc
      .tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 7 }), fc.boolean())
      .chain(([few, any, fewIsBase]) => fc.tuple(side(fewIsBase ? few : any), side(fewIsBase ? any : few)))
      .map(([b, n]): PairSpec => ({ base: unique(b), next: unique(n) }));
    fc.assert(
      fc.property(fc.array(pair, { minLength: 1, maxLength: 6 }), options, (pairs, opts) => {
        const r = compare(pairs, opts);
        for (const p of r.pairs) expect(p.time!.verdict).toBe('inconclusive');
        expect(r.counts).toMatchObject({ timeRegressions: 0, timeImprovements: 0, timeInconclusive: pairs.length });
        expect([r.failed, r.exitCode]).toEqual([false, 0]);
        expect(verdictLine(r)).toMatch(/^OK: .*inconclusive on time/);
        expect(formatComparison(r, 'table')).toContain(`time inconclusive for ${pairs.length} of ${pairs.length} pairs: fewer than 3 repetitions a side: rerun with --repeat 3 or more`);
      }),
      { numRuns: 150 },
    );
  });
});

describe('compare: 3 or more repetitions a side', () => {
  it('flag a clear separation (every NEW at least twice every BASE) as a regression', () => {
    const pair = fc
      .tuple(fc.array(timeMs(5, 5000), { minLength: 3, maxLength: 9 }), fc.array(fc.double({ min: 2.01, max: 20, noNaN: true }), { minLength: 3, maxLength: 9 }))
      .map(([b, factors]): PairSpec => ({ base: unique(b), next: unique(factors.map((f) => Math.round(Math.max(...b) * f * 1000) / 1000)) }));
    fc.assert(
      fc.property(pair, options, (spec, opts) => {
        fc.pre(Math.min(...spec.next.times) >= 2 * Math.max(...spec.base.times));
        const r = compare([spec], opts);
        expect(r.pairs[0]!.time!.verdict).toBe('regression');
        expect(r.pairs[0]!.time!.low).toBeGreaterThanOrEqual(2);
        // Alone, the pair holds when its own p-value is within the level: from 4 + 4 repetitions at 95%.
        const holds = r.pairs[0]!.time!.pValue <= 1 - opts.confidence;
        expect(r.pairs[0]!.time!.confirmed).toBe(holds);
        expect([r.failed, r.exitCode]).toEqual(holds ? [true, 1] : [false, 0]);
      }),
      { numRuns: 150 },
    );
  });
});

/** Severity classes as the README states them. */
const severity = (p: PairComparison) =>
  p.status.verdict === 'regression' ? 0 : p.time?.verdict === 'regression' ? 1 : p.status.verdict === 'change' ? 2 : p.status.verdict === 'improvement' ? 3 : p.time?.verdict === 'improvement' ? 4 : 5;
const diff = (p: PairComparison) => p.time?.diffMs ?? 0;
const key = (p: PairComparison) => [p.puzzlePath, p.strategy, p.puzzleId];

/** Pairs of every kind: repetitions 1–6 a side, any scale, slowdowns and speed-ups, a status now and then that is not `unique`. */
const anyPair = fc
  .record({
    scale: timeMs(0.5, 3000),
    factor: fc.double({ min: 0.3, max: 3, noNaN: true }),
    baseJitter: fc.array(fc.double({ min: 0.95, max: 1.05, noNaN: true }), { minLength: 1, maxLength: 6 }),
    nextJitter: fc.array(fc.double({ min: 0.95, max: 1.05, noNaN: true }), { minLength: 1, maxLength: 6 }),
    baseStatus: fc.constantFrom('unique', 'unique', 'unique', 'stuck', 'timeout', 'solved'),
    nextStatus: fc.constantFrom('unique', 'unique', 'unique', 'stuck', 'timeout', 'memory', 'wrong', 'multiple', 'solved'),
  })
  .map(
    ({ scale, factor, baseJitter, nextJitter, baseStatus, nextStatus }): PairSpec => ({
      base: { statuses: baseJitter.map(() => baseStatus), times: baseJitter.map((j) => scale * j) },
      next: { statuses: nextJitter.map(() => nextStatus), times: nextJitter.map((j) => scale * factor * j) },
    }),
  );

describe('compare: listing order', () => {
  it('lists status regressions (worst first), time regressions (most ms lost first), other changes, improvements; ties by key; whatever the row order', () => {
    fc.assert(
      fc.property(fc.array(anyPair, { minLength: 1, maxLength: 12 }), (pairs) => {
        const r = compare(pairs);
        for (let i = 1; i < r.pairs.length; i++) {
          const [a, b] = [r.pairs[i - 1]!, r.pairs[i]!];
          const [ca, cb] = [severity(a), severity(b)];
          expect(ca).toBeLessThanOrEqual(cb);
          if (ca !== cb) continue;
          const primary =
            ca === 0
              ? statusRank(a.next.status) - statusRank(b.next.status)
              : ca === 1
                ? diff(a) - diff(b)
                : ca === 4
                  ? diff(b) - diff(a)
                  : ca === 5
                    ? Math.abs(diff(a)) - Math.abs(diff(b))
                    : 0;
          expect(primary).toBeGreaterThanOrEqual(0);
          if (primary === 0) expect(key(a).join('\u0000') < key(b).join('\u0000')).toBe(true);
        }
        const reversed = compare(pairs, {}, (rows) => [...rows].reverse());
        expect(reversed.pairs.map(key)).toEqual(r.pairs.map(key));
      }),
      { numRuns: 150 },
    );
  });

  it('puts a 30% slowdown of a 2 s solve before a 40% slowdown of a 1.1 ms one', () => {
    const jitter = [1, 1.01, 0.99, 1.005, 0.995];
    const slower = (ms: number, factor: number): PairSpec => ({ base: unique(jitter.map((j) => ms * j)), next: unique(jitter.map((j) => ms * factor * j)) });
    const r = compare([slower(1.1, 1.4), slower(2000, 1.3)]);
    expect(r.pairs.map((p) => [p.puzzlePath, p.time!.verdict])).toEqual([
      ['p1.non', 'regression'],
      ['p0.non', 'regression'],
    ]);
    const text = formatComparison(r, 'table');
    expect(text.indexOf('p1.non')).toBeLessThan(text.indexOf('p0.non'));
  });
});

/** The ms figures a text line shows after a sign: `+3.41 ms` → 3.41. */
const shownDiffs = (line: string) => [...line.matchAll(/([+-]\d+\.\d+) ms/g)].map((m) => Number(m[1]));
/** The precision ms() shows a time with. */
const resolution = (x: number) => (Math.abs(x) >= 100 ? 0.05 : Math.abs(x) >= 1 ? 0.005 : 0.0005) + 1e-9;

describe('compare: the absolute difference', () => {
  it('is median(NEW) − median(BASE) in every format', () => {
    fc.assert(
      fc.property(fc.array(anyPair, { minLength: 1, maxLength: 8 }), (pairs) => {
        const r: CompareResult = compare(pairs);
        for (const p of r.pairs) if (p.time) expect(p.time.diffMs).toBe(p.next.medianMs! - p.base.medianMs!);

        const json = JSON.parse(formatComparison(r, 'json'));
        for (const p of json.pairs) if (p.time) expect(p.time.diff_ms).toBe(p.new.median_ms - p.base.median_ms);

        const rows: Record<string, string>[] = parse(formatComparison(r, 'csv'), { columns: true });
        for (const row of rows) {
          if (row.base_median_ms === '' || row.new_median_ms === '') expect(row.diff_ms).toBe('');
          else expect(Number(row.diff_ms)).toBeCloseTo(Number(row.new_median_ms) - Number(row.base_median_ms), 6);
        }

        // Every time change listed shows it, rounded as its medians are.
        const listed = r.pairs.filter((p) => p.time?.verdict === 'regression' || p.time?.verdict === 'improvement');
        for (const format of ['table', 'md'] as const) {
          const lines = formatComparison(r, format).split('\n');
          for (const p of listed) {
            const line = lines.find((l) => (format === 'md' ? l.startsWith(`| ${p.puzzlePath} |`) : l.startsWith(`${p.puzzlePath} `)) && / ms/.test(l));
            expect(line, `${format} ${p.puzzlePath}`).toBeDefined();
            const [shown] = shownDiffs(line!);
            expect(Math.abs(shown! - p.time!.diffMs)).toBeLessThanOrEqual(resolution(p.time!.diffMs));
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

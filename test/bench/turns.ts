/**
 * How often A/B strategy verdicts are wrong under load, from the turns of A/B runs already made:
 * each turn (one side's run of one round, `base-roundR.csv` / `new-roundR.csv` in an ab folder) ran
 * under whatever load the machine had then. Drawing 5 turns for each side at random makes many
 * comparisons from a few runs, judged both ways: over pairs (the interval compare gives two runs
 * made apart) and over rounds (`--paired-rounds`, as ab and bench-check --ab judge).
 *
 *   node dist/test/bench/turns.js --same DIR… [--samples 200] [--seed 1]
 *       A/A: both sides drawn from the same build's turns (`base` and `new` each in turn); any
 *       strategy verdict is wrong.
 *   node dist/test/bench/turns.js --base DIR… --slowed DIR… --strategy sat [--samples 200]
 *       A from the base turns, B from the `new` turns of runs whose NEW build slowed one strategy:
 *       how often that strategy's slowdown is found, and how often another strategy gets a verdict.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compareRuns, DEFAULT_COMPARE_OPTIONS, type RunCsv } from '../../harness/compare/compare.js';
import { readCsv, type CsvRecord } from '../../harness/results/csv.js';

const { values: args, tokens } = parseArgs({
  options: {
    same: { type: 'string', multiple: true, default: [] },
    base: { type: 'string', multiple: true, default: [] },
    slowed: { type: 'string', multiple: true, default: [] },
    strategy: { type: 'string', default: 'sat' },
    samples: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
  },
  allowPositionals: true,
  tokens: true,
});
// `--same DIR…`: the folders after the first (a shell glob) belong to the list option before them.
let list: string[] | undefined;
for (const t of tokens)
  if (t.kind === 'option') list = t.name === 'same' || t.name === 'base' || t.name === 'slowed' ? args[t.name] : undefined;
  else if (t.kind === 'positional') {
    if (!list) throw new Error(`${t.value}: a folder goes after --same, --base or --slowed`);
    list.push(t.value);
  }

interface Turn {
  columns: string[];
  records: CsvRecord[];
}

/** The turns of one side in ab folders. */
function turnsOf(dirs: readonly string[], side: 'base' | 'new'): Turn[] {
  const turns: Turn[] = [];
  const round = new RegExp(`^${side}-round\\d+\\.csv$`);
  for (const dir of dirs)
    for (const name of readdirSync(dir).filter((n) => round.test(n)).sort()) {
      const { columns, records } = readCsv(join(dir, name));
      if (records.length > 0) turns.push({ columns, records });
    }
  return turns;
}

let state = Number(args.seed) >>> 0 || 1;
const random = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32);

/** `k` distinct indices below n, at random. */
function draw(n: number, k: number): number[] {
  const order = Array.from({ length: n }, (_x, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, k);
}

/** Turns as one run: the k-th drawn is round k. */
const asRun = (file: string, turns: Turn[]): RunCsv => ({
  file,
  columns: turns[0]!.columns,
  records: turns.flatMap((t, k) => t.records.map((r) => ({ ...r, rep: String(k + 1) }))),
});

const RULES = { pairs: false, rounds: true } as const;

/** Judges A against B both ways; the strategies with a verdict, by rule. */
function verdicts(a: RunCsv, b: RunCsv): Record<keyof typeof RULES, Map<string, string>> {
  const out = { pairs: new Map<string, string>(), rounds: new Map<string, string>() };
  for (const rule of Object.keys(RULES) as (keyof typeof RULES)[]) {
    const r = compareRuns(a, b, { ...DEFAULT_COMPARE_OPTIONS, minTimeMs: 5, allowDifferent: true, pairedRounds: RULES[rule] });
    for (const s of r.strategies) if (s.verdict === 'regression' || s.verdict === 'improvement') out[rule].set(s.strategy, s.verdict);
  }
  return out;
}

const samples = Number(args.samples);
const ROUNDS = 5;
if (args.same.length > 0) {
  for (const side of ['base', 'new'] as const) {
    const turns = turnsOf(args.same, side);
    if (turns.length < 2 * ROUNDS) throw new Error(`${side}: ${turns.length} turns, ${2 * ROUNDS} needed`);
    const wrong = { pairs: 0, rounds: 0 };
    for (let n = 0; n < samples; n++) {
      const ids = draw(turns.length, 2 * ROUNDS);
      const v = verdicts(asRun('a', ids.slice(0, ROUNDS).map((i) => turns[i]!)), asRun('b', ids.slice(ROUNDS).map((i) => turns[i]!)));
      for (const rule of Object.keys(wrong) as (keyof typeof wrong)[]) if (v[rule].size > 0) wrong[rule]++;
    }
    console.log(`A/A, ${side} turns (${turns.length}), ${samples} draws: a strategy verdict in ${wrong.pairs} over pairs, ${wrong.rounds} over rounds`);
  }
} else {
  const base = turnsOf(args.base, 'base');
  const slowed = turnsOf(args.slowed, 'new');
  const found = { pairs: 0, rounds: 0 };
  const wrong = { pairs: 0, rounds: 0 };
  for (let n = 0; n < samples; n++) {
    const a = asRun('a', draw(base.length, ROUNDS).map((i) => base[i]!));
    const b = asRun('b', draw(slowed.length, ROUNDS).map((i) => slowed[i]!));
    const v = verdicts(a, b);
    for (const rule of Object.keys(found) as (keyof typeof found)[]) {
      if (v[rule].get(args.strategy!) === 'regression') found[rule]++;
      if ([...v[rule].keys()].some((s) => s !== args.strategy)) wrong[rule]++;
    }
  }
  console.log(`${args.strategy} slowed, ${samples} draws: found ${found.pairs} over pairs, ${found.rounds} over rounds; another strategy given a verdict ${wrong.pairs} and ${wrong.rounds}`);
}

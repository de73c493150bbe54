import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROW_STATUSES, type RowStatus } from '../../harness/results/row.js';
import { figure, isAnswer, ScoreSheet } from '../../harness/results/scores.js';
import { displayWidth, median, RunSummary, shorten, summaryTable, type StrategySummary, type SummaryRow } from '../../harness/results/summary.js';

const row = (status: RowStatus, time_ms: number | '', cpu_ms: number | '' = '', dead_ends: number | '' = '', timeout_s: number | '' = 10): SummaryRow => ({
  status,
  time_ms,
  cpu_ms,
  dead_ends,
  timeout_s,
});

/** Each printed line fits, measured as a terminal shows it. */
const widest = (text: string) => Math.max(...text.split('\n').map((line) => displayWidth(line)));

describe('run summary', () => {
  it('counts statuses and scores solved tasks only, configurations in the given order', () => {
    const s = new RunSummary(['enumeration', 'backtrack']);
    s.add('backtrack', row('unique', 4, '', 2));
    s.add('backtrack', row('timeout', ''));
    s.add('enumeration', row('stuck', 10, '', 0));
    s.add('backtrack', row('contradiction', 2, '', 5));
    s.add('backtrack', row('wrong', 1, '', 9));
    s.add('mine', row('error', ''));
    const rows = s.strategies();
    expect(rows.map((r) => r.strategy)).toEqual(['enumeration', 'backtrack', 'mine']);
    // The wrong row's 1 ms and 9 dead ends count nowhere; a timeout and a wrong answer each cost 2 × 10 s.
    expect(rows[1]).toEqual({ strategy: 'backtrack', tasks: 4, statuses: { unique: 1, timeout: 1, contradiction: 1, wrong: 1 }, count: 4, solved: 2, medianMs: 3, totalMs: 6, par2S: 40.006, deadEnds: 7 });
    expect(rows[0]).toMatchObject({ solved: 0, medianMs: NaN, totalMs: 0, par2S: 20, deadEnds: null });
    expect(s.count('timeout')).toBe(1);
    expect(s.basis()).toBe('wall');
    const table = s.format().split('\n');
    // Too many columns for dead ends beside the names.
    expect(table[1]).toMatch(/^config\s+tasks\s+solved\s+stuck\s+timeout\s+wrong\s+error\s+wall ms\s+wall s\s+s$/);
    expect(table.slice(3, 6).map((l) => l.split(/\s+/)[0])).toEqual(['enumeration', 'backtrack', 'mine']);
    expect(table[4]).toMatch(/^backtrack\s+4\s+2\s+0\s+1\s+1\s+0\s+3\.00\s+0\.006\s+40\.01$/);
    expect(s.format()).toContain('wall time (time_ms)');
  });

  it('shows CPU time when every solved task has it, PAR-2 as - without a time limit', () => {
    const s = new RunSummary();
    s.add('sat', row('unique', 5, 4, 0, ''));
    s.add('sat', row('timeout', 12, '', '', ''));
    expect(s.basis()).toBe('cpu');
    expect(s.strategies()[0]).toMatchObject({ medianMs: 4, totalMs: 4, par2S: null });
    expect(s.format()).toContain('cpu ms');
    expect(s.format()).toContain('CPU time (cpu_ms)');
    expect(s.format().split('\n')[3]).toMatch(/^sat\s+2\s+1\s+1\s+4\.00\s+0\.004\s+-\s+0$/);
    s.add('sat', row('solved', 5, '', 0, ''));
    expect(s.basis()).toBe('wall');
  });

  it('median of odd, even and empty lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

const statusArb = fc.constantFrom(...ROW_STATUSES);
const rowArb = fc.record({
  config: fc.constantFrom('a', 'b', 'c'),
  status: statusArb,
  wall: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: undefined }),
  cpu: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: undefined }),
  limit: fc.constantFrom(0, 1, 10, 2.5),
});

describe('summary figures against a direct computation', () => {
  it('solved, median and total over solved tasks only, PAR-2 = solved times + 2 × limit per other task', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 60 }), (rows) => {
        const s = new RunSummary();
        for (const r of rows) s.add(r.config, row(r.status, r.wall ?? '', r.cpu ?? '', '', r.limit || ''));
        const answeredTimed = rows.filter((r) => isAnswer(r.status) && r.wall !== undefined);
        const basis = answeredTimed.length > 0 && answeredTimed.every((r) => r.cpu !== undefined) ? 'cpu' : 'wall';
        expect(s.basis()).toBe(basis);
        for (const got of s.strategies()) {
          const mine = rows.filter((r) => r.config === got.strategy);
          const time = (r: (typeof rows)[number]) => (basis === 'cpu' ? r.cpu : r.wall);
          const solved = mine.filter((r) => isAnswer(r.status));
          const times = solved.map(time).filter((t): t is number => t !== undefined);
          expect(got.tasks).toBe(mine.length);
          expect(got.solved).toBe(solved.length);
          if (times.length === 0) expect(got.medianMs).toBeNaN();
          else expect(got.medianMs).toBe(median(times));
          expect(got.totalMs).toBeCloseTo(times.reduce((a, b) => a + b, 0), 6);
          const defined = mine.every((r) => r.limit > 0) && solved.every((r) => time(r) !== undefined);
          const par2 = mine.reduce((sum, r) => sum + (isAnswer(r.status) ? time(r)! / 1000 : 2 * r.limit), 0);
          if (defined) expect(got.par2S).toBeCloseTo(par2, 6);
          else expect(got.par2S).toBeNull();
        }
      }),
    );
  });

  it('an unsolved task never moves the median or total, whatever its time', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 20 }), fc.constantFrom('stuck', 'timeout', 'memory', 'too-large', 'wrong', 'error'), fc.double({ min: 0, max: 1e9, noNaN: true }), (times, bad, badTime) => {
        const sheet = new ScoreSheet();
        const alone = new ScoreSheet();
        for (const t of times) {
          sheet.add(true, t, 10);
          alone.add(true, t, 10);
        }
        sheet.add(isAnswer(bad), badTime, 10);
        const [a, b] = [sheet.scores(), alone.scores()];
        expect([a.medianMs, a.totalMs, a.solved]).toEqual([b.medianMs, b.totalMs, b.solved]);
        expect(a.par2S! - b.par2S!).toBeCloseTo(20, 6);
      }),
    );
  });
});

/** A summary row with the given figures (what summaryTable prints). */
function summaryRow(name: string, tasks: number, statuses: Partial<Record<RowStatus, number>>, medianMs: number, totalMs: number, par2S: number | null): StrategySummary {
  const solved = ['unique', 'multiple', 'solved', 'contradiction'].reduce((n, s) => n + (statuses[s as RowStatus] ?? 0), 0);
  return { strategy: name, tasks, statuses, count: tasks, solved, medianMs, totalMs, par2S, deadEnds: tasks * 1000 };
}

/** A name: ASCII, Latin, CJK and emoji, possibly far longer than a terminal. */
const nameArb = fc.string({ unit: fc.constantFrom(...'abcxyz:=-_.0123456789'.split(''), 'é', 'ß', '猫', '図', '😀'), minLength: 1, maxLength: 120 });

describe('the summary table fits an 80-column terminal', () => {
  it('five usual configurations: every status column, full names', () => {
    const names = ['enumeration', 'overlap', 'backtrack', 'probe', 'sat:encoding=automaton'];
    const rows = names.map((n, i) => summaryRow(n, 347, { unique: 300 - i, multiple: 20, stuck: 10 + i, timeout: 17 }, 12.345 * (i + 1), 4321.5 * (i + 1), 6940 * (i + 1)));
    const text = summaryTable(rows, 'cpu');
    expect(widest(text)).toBeLessThanOrEqual(80);
    for (const n of names) expect(text).toContain(n);
    expect(text.split('\n')[1]).toMatch(/\bstuck\s+timeout\b/);
  });

  it('worst case: every status, a million tasks, hour-long limits, 200-character names: merged columns, names cut with …, no number cut', () => {
    const long = (c: string) => `${c.repeat(100)}-${'z'.repeat(99)}`;
    const everything = Object.fromEntries(ROW_STATUSES.map((s) => [s, 100_000]));
    const rows = ['a', 'b', 'c', 'd', 'e'].map((c) => summaryRow(long(c), 1_000_000, everything, 3_600_000, 3.6e12, 7.2e9));
    const text = summaryTable(rows, 'wall');
    expect(widest(text)).toBeLessThanOrEqual(80);
    const lines = text.split('\n');
    for (const [i, c] of ['a', 'b', 'c', 'd', 'e'].entries()) {
      const cells = lines[3 + i]!.split(/\s+/);
      expect(cells[0]).toMatch(new RegExp(`^${c}+…z+$`));
      expect(cells.slice(1)).toEqual(['1000000', '400000', '600000', '3600000', '3600000000', '7200000000']);
    }
    expect(lines[1]).toMatch(/unsolved/);
  });

  it('any names, statuses and figures up to a million tasks and an hour per task', () => {
    const configArb = fc.record({
      name: nameArb,
      statuses: fc.dictionary(statusArb, fc.integer({ min: 1, max: 200_000 }), { maxKeys: ROW_STATUSES.length }),
      median: fc.option(fc.double({ min: 0, max: 3_600_000, noNaN: true }), { nil: NaN }),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
      par2: fc.option(fc.double({ min: 0, max: 7.2e9, noNaN: true }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(configArb, { minLength: 1, maxLength: 6 }), fc.constantFrom('cpu' as const, 'wall' as const), (configs, basis) => {
        const rows = configs.map((c) => {
          const tasks = Object.values(c.statuses).reduce((a, b) => a + b, 0);
          return summaryRow(c.name, tasks, c.statuses, c.median, c.share * tasks * 3.6e6, c.par2);
        });
        const text = summaryTable(rows, basis);
        expect(widest(text)).toBeLessThanOrEqual(80);
        // Every number whole: the row holds each figure as printed.
        const lines = text.split('\n');
        rows.forEach((r, i) => {
          const line = lines[3 + i]!;
          for (const f of [String(r.tasks), String(r.solved), figure(r.medianMs), figure(r.totalMs / 1000), figure(r.par2S)]) expect(` ${line} `).toContain(` ${f} `);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('counts flags and emoji shown as pictures (⌚, ⏳) two columns wide, as terminals show them', () => {
    // Regional indicators and U+231A sit below the emoji block: a name of 20 flags was taken for 20 columns, the table ran to 83.
    expect(displayWidth('🇯🇵🇫🇷')).toBe(4);
    expect(displayWidth('⌚⏳a')).toBe(5);
    expect(displayWidth('☺')).toBe(1); // text presentation by default
    const flags = summaryTable([summaryRow('🇯🇵'.repeat(20), 3, { unique: 3 }, 1.2, 3, 0.004), summaryRow('b', 3, { unique: 3 }, 1.2, 3, 0.004)], 'cpu');
    expect(widest(flags)).toBeLessThanOrEqual(80);
  });

  it('shortens in the middle, keeping both ends, to the width asked', () => {
    fc.assert(
      fc.property(nameArb, fc.integer({ min: 3, max: 60 }), (name, width) => {
        const short = shorten(name, width);
        expect(displayWidth(short)).toBeLessThanOrEqual(width);
        if (displayWidth(name) <= width) expect(short).toBe(name);
        else {
          const [head, tail] = short.split('…') as [string, string];
          expect(name.startsWith(head) && name.endsWith(tail)).toBe(true);
        }
      }),
    );
  });

  it('cuts a name of thousands of characters as it cuts a short one, looking at its two ends alone', () => {
    // The whole name segmented, as the cut was made before (its time and memory grew faster than the name).
    const graphemes = (text: string) => Array.from(new Intl.Segmenter().segment(text), (g) => g.segment);
    const columns = (g: string) => displayWidth(g);
    function wholeCut(name: string, width: number): string {
      const parts = graphemes(name);
      if (parts.reduce((w, g) => w + columns(g), 0) <= width) return name;
      let [head, tail, i, j] = ['', '', 0, parts.length - 1];
      for (let room = width - 1, turn = 0; i <= j; turn++) {
        const next = turn % 2 === 0 ? parts[i]! : parts[j]!;
        if (columns(next) > room) break;
        room -= columns(next);
        if (turn % 2 === 0) head += parts[i++]!;
        else tail = parts[j--]! + tail;
      }
      return `${head}…${tail}`;
    }
    fc.assert(
      fc.property(fc.array(nameArb, { minLength: 20, maxLength: 60 }), fc.integer({ min: 3, max: 60 }), (pieces, width) => {
        const name = pieces.join('');
        expect(shorten(name, width)).toBe(wholeCut(name, width));
        expect(displayWidth(name, width)).toBe(Math.min(width + 1, displayWidth(name)));
      }),
      { numRuns: 200 },
    );
    const huge = `${'y'.repeat(100_000)}😀${'z'.repeat(100_000)}`;
    expect(shorten(huge, 21)).toBe(`${'y'.repeat(10)}…${'z'.repeat(10)}`);
    expect(summaryTable([summaryRow(huge, 1, { unique: 1 }, 1, 1, 1)], 'cpu')).toContain('…');
  });
});

import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { makePuzzle, EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import { emptyMetrics } from '../../solvers/api/types.js';
import { replayPage, REPLAY_DATA_ID } from '../../harness/replay/page.js';
import { ReplayRecorder } from '../../harness/replay/recorder.js';

/** Runs the page's one script with a minimal DOM (a canvas that draws nothing); returns its counter and description. */
function playPage(html: string, search: string) {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
  const data = new RegExp(`<script type="application/json" id="${REPLAY_DATA_ID}">([\\s\\S]*?)</script>`).exec(html)![1]!;
  const ctx = new Proxy({}, { get: (t: Record<string, unknown>, k: string) => (k in t ? t[k] : () => {}), set: (t, k: string, v) => ((t[k] = v), true) });
  const elements: Record<string, Record<string, unknown>> = {};
  const element = (id: string) =>
    (elements[id] ??= {
      textContent: id === REPLAY_DATA_ID ? data : '',
      value: id === 'speed' ? '10' : '0',
      style: {},
      options: [1, 2, 5, 10, 20, 50, 100, 250, 1000].map((n) => ({ value: String(n) })),
      addEventListener: () => {},
      getContext: () => ctx,
    });
  runInNewContext(script, {
    document: { getElementById: element, addEventListener: () => {} },
    window: { devicePixelRatio: 1 },
    location: { search },
    URLSearchParams,
    atob: (s: string) => Buffer.from(s, 'base64').toString('latin1'),
    performance,
    setTimeout: () => 0,
    clearTimeout: () => {},
  });
  return { counter: elements.counter!.textContent, description: elements.description!.textContent, speed: elements.speed!.value };
}

describe('the replay player', () => {
  it('says the final step takes cells back to unknown when the final grid knows fewer than the steps left', () => {
    // As auto's timeout after clause learning fixed cells: the steps decided two cells, the solve reports a grid without them.
    const puzzle = makePuzzle([[1], []], [[1], []]);
    const recorder = new ReplayRecorder(4);
    recorder.line(0, true, Uint8Array.of(FILLED, EMPTY, UNKNOWN, UNKNOWN), Int32Array.of(0, 1), 0, 2);
    const grid = new Uint8Array(4);
    const steps = recorder.finish(grid);
    const html = replayPage({ puzzle, strategy: 'auto', result: { status: 'timeout', grid, solutions: [], metrics: emptyMetrics() }, steps, maxSteps: 20_000 });
    expect(playPage(html, '?step=2')).toMatchObject({ counter: 'step 2 / 2', description: 'final grid: timeout (2 cells back to unknown)' });
  });

  it('says how many cells the final step sets when it sets them', () => {
    const puzzle = makePuzzle([[1], []], [[1], []]);
    const recorder = new ReplayRecorder(4);
    const grid = Uint8Array.of(FILLED, EMPTY, EMPTY, EMPTY);
    const html = replayPage({ puzzle, strategy: 'backtrack', result: { status: 'unique', grid, solutions: [grid], metrics: emptyMetrics() }, steps: recorder.finish(grid), maxSteps: 20_000 });
    expect(playPage(html, '?step=1').description).toBe('final grid: unique (4 cells set)');
  });

  it('takes any ?speed= from 1 to 1000 as the nearest speed the menu offers, and ignores one that is no speed', () => {
    const puzzle = makePuzzle([[1]], [[1]]);
    const grid = Uint8Array.of(FILLED);
    const html = replayPage({ puzzle, strategy: 'overlap', result: { status: 'unique', grid, solutions: [grid], metrics: emptyMetrics() }, steps: new ReplayRecorder(1).finish(grid), maxSteps: 20_000 });
    const speeds = ['?speed=3', '?speed=10.0', '?speed=1', '?speed=240', '?speed=5000', '?speed=0', '?speed=abc', ''].map((q) => playPage(html, q).speed);
    expect(speeds).toEqual(['2', '10', '1', '250', '1000', '10', '10', '10']);
  });
});

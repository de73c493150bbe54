import { describe, expect, it } from 'vitest';
import { renderSvg, scatterSpec } from '../../harness/report/charts.js';

describe('report scatter plot: every point inside the axes', () => {
  it('a solved time past the time limit (CPU time of a multi-threaded solver under a wall limit) widens the axes instead of being clipped away', async () => {
    const points = [
      { x: 2, y: 3, outcome: 'both solved', label: 'a' },
      // 2.5 s of CPU time under a 1 s (wall) limit.
      { x: 4, y: 2500, outcome: 'both solved', label: 'b' },
    ];
    const spec = scatterSpec(points, 'x', 'y', { ms: 1000, label: 'time limit' }, 'cpu ms') as unknown as { layer: { encoding: Record<'x' | 'y', { scale: { domain: number[] } } | undefined> }[] };
    for (const layer of spec.layer) for (const axis of [layer.encoding.x, layer.encoding.y]) if (axis) expect(axis.scale.domain[1]).toBeGreaterThan(2500);
    // Drawn inside the plot's 420 × 420 area.
    const svg = await renderSvg(scatterSpec(points, 'x', 'y', { ms: 1000, label: 'time limit' }, 'cpu ms'));
    const at = [...svg.matchAll(/aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="point"[^>]*?transform="translate\(([-\d.]+),([-\d.]+)\)"/g)].map((m) => [m[1], Number(m[2]), Number(m[3])] as const);
    expect(at.map((p) => p[0])).toEqual(['a', 'b']);
    for (const [, x, y] of at) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(420);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(420);
    }
  });
});

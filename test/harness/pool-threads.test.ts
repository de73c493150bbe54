import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SolverPool } from '../../harness/run/pool.js';
import { runsBuiltIn } from '../../harness/run/run.js';

/** The built-in strategies' threads of a pool (piscina lists the threads it has started). */
const sharedThreads = (pool: SolverPool) => (pool as unknown as { shared: { threads: unknown[] } }).shared.threads.length;

describe('the built-in strategies’ threads', () => {
  const pools: SolverPool[] = [];
  afterEach(async () => {
    for (const pool of pools.splice(0)) await pool.close();
  });

  it('start with the pool when a built-in runs, and not at all for plugins and external solvers alone', () => {
    const eager = new SolverPool({ workers: 2, memoryMb: 256 });
    const idle = new SolverPool({ workers: 2, memoryMb: 256, sharedAtStart: false });
    pools.push(eager, idle);
    expect(sharedThreads(eager)).toBe(2);
    expect(sharedThreads(idle)).toBe(0);
  });

  it('are needed by any configuration naming a built-in, written or parsed, and by one that does not parse (refused later)', () => {
    const plugin = resolve('test/fixtures/harness/always-solved.mjs');
    const external = { strategy: 'external', external: { command: '/bin/true', input: 'non' as const, output: 'grid' as const } };
    expect(runsBuiltIn(['sat'])).toBe(true);
    expect(runsBuiltIn(['fast=backtrack:probing=false'])).toBe(true);
    expect(runsBuiltIn([{ strategy: 'overlap' }])).toBe(true);
    expect(runsBuiltIn([plugin, `mine=${plugin}:x=1`, { strategy: plugin }, external])).toBe(false);
    expect(runsBuiltIn([plugin, 'probe'])).toBe(true);
    expect(runsBuiltIn([external, { strategy: 'sat' }])).toBe(true);
    expect(runsBuiltIn(['a=b=c::'])).toBe(true);
    expect(runsBuiltIn([])).toBe(false);
  });
});

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { parseShard, shardFromEnvironment } from '../../harness/run/shard.js';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('shard');
requireBuiltCli();

describe('--shard auto', () => {
  it('numbers the tasks of a Slurm array 1…N whatever its first index and step', () => {
    fc.assert(
      fc.property(fc.nat(100), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 20 }), (min, step, count) => {
        const max = min + step * (count - 1);
        const seen = Array.from({ length: count }, (_, i) =>
          shardFromEnvironment({ SLURM_ARRAY_TASK_ID: String(min + i * step), SLURM_ARRAY_TASK_MIN: String(min), SLURM_ARRAY_TASK_MAX: String(max), SLURM_ARRAY_TASK_STEP: String(step) }),
        );
        expect(seen).toEqual(Array.from({ length: count }, (_, i) => ({ k: i + 1, n: count })));
      }),
    );
    expect(shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '4' })).toEqual({ k: 4, n: 4 });
  });

  it('takes a Kubernetes indexed Job from JOB_COMPLETION_INDEX and --shard-count', () => {
    expect(shardFromEnvironment({ JOB_COMPLETION_INDEX: '0' }, 3)).toEqual({ k: 1, n: 3 });
    expect(shardFromEnvironment({ JOB_COMPLETION_INDEX: '2' }, 3)).toEqual({ k: 3, n: 3 });
    expect(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: '3' }, 3)).toThrow('slice 4 of 3');
    expect(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: '0' })).toThrow('needs --shard-count');
  });

  it('refuses to guess without job-array variables, and K/N still reads as before', () => {
    expect(() => parseShard('auto', {})).toThrow('no job-array variables');
    expect(() => shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_STEP: '2', SLURM_ARRAY_TASK_MAX: '8' })).toThrow('not on the array');
    expect(parseShard('2/5', {})).toEqual({ k: 2, n: 5 });
  });

  it('three array tasks of a simulated Slurm job cover the run exactly once, and merge gives it back', () => {
    const d = dir();
    const paths = ['test/fixtures/harness/tiny.json'];
    const run = (env: Record<string, string>, out: string) =>
      spawnSync(process.execPath, [CLI, 'run', ...paths, '--strategies', 'overlap,sat', '--shard', 'auto', '--out', out, '--quiet'], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
    const outs = [0, 1, 2].map((i) => join(d, `part${i}.csv`));
    outs.forEach((out, i) => expect(run({ SLURM_ARRAY_TASK_ID: String(i), SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '3' }, out).status).toBe(0));
    const whole = join(d, 'whole.csv');
    expect(spawnSync(process.execPath, [CLI, 'merge', whole, ...outs], { encoding: 'utf8' }).status).toBe(0);
    const tasks = parseCsv(readFileSync(whole, 'utf8')).records.map((r) => Number(r.task));
    expect(tasks).toEqual(Array.from({ length: 16 }, (_, i) => i));
  });
});

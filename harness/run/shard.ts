import { UsageError } from '../io/thrown.js';

/** One slice of a run's tasks: the K-th (1-based) of N. */
export interface Shard {
  k: number;
  n: number;
}

const wholeNumber = (text: string | undefined) => (text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : undefined);

function checked(k: number, n: number, from: string): Shard {
  if (!(n >= 1 && k >= 1 && k <= n)) throw new UsageError(`--shard ${from} gives slice ${k} of ${n}, not one with 1 ≤ K ≤ N`);
  return { k, n };
}

/**
 * The slice a job-array task runs, from its scheduler's variables: Slurm's SLURM_ARRAY_TASK_ID
 * with SLURM_ARRAY_TASK_MIN, _STEP and _COUNT (or _MAX), so `--array=0-9`, `1-10` or `0-18:2` all
 * give slices 1…10; or a Kubernetes indexed Job's JOB_COMPLETION_INDEX (0-based) with `shardCount`,
 * the Job's completions, which Kubernetes does not tell its pods.
 */
export function shardFromEnvironment(env: NodeJS.ProcessEnv, shardCount?: number): Shard {
  const slurmId = wholeNumber(env.SLURM_ARRAY_TASK_ID);
  if (slurmId !== undefined) {
    const min = wholeNumber(env.SLURM_ARRAY_TASK_MIN) ?? 0;
    const step = wholeNumber(env.SLURM_ARRAY_TASK_STEP) || 1;
    const max = wholeNumber(env.SLURM_ARRAY_TASK_MAX);
    const count = shardCount ?? wholeNumber(env.SLURM_ARRAY_TASK_COUNT) ?? (max !== undefined ? Math.floor((max - min) / step) + 1 : undefined);
    if (count === undefined) throw new UsageError('--shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX (or give --shard-count)');
    if ((slurmId - min) % step !== 0) throw new UsageError(`--shard auto: SLURM_ARRAY_TASK_ID ${slurmId} is not on the array's steps (min ${min}, step ${step})`);
    return checked((slurmId - min) / step + 1, count, 'auto (Slurm)');
  }
  const index = wholeNumber(env.JOB_COMPLETION_INDEX);
  if (index !== undefined) {
    if (shardCount === undefined) throw new UsageError('--shard auto: a Kubernetes indexed Job needs --shard-count (the Job\'s completions)');
    return checked(index + 1, shardCount, 'auto (Kubernetes)');
  }
  throw new UsageError('--shard auto: no job-array variables (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX) are set');
}

/** `--shard`: `K/N` (1 ≤ K ≤ N), or `auto` for the scheduler's job-array variables. */
export function parseShard(text: string, env: NodeJS.ProcessEnv = process.env, shardCount?: number): Shard {
  if (text.trim() === 'auto') return shardFromEnvironment(env, shardCount);
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const k = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!m || n < 1 || k < 1 || k > n) throw new UsageError(`--shard expects K/N with 1 ≤ K ≤ N, or auto, got "${text}"`);
  return { k, n };
}

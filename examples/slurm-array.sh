#!/usr/bin/env bash
# A nonobench run as a Slurm job array: each array task runs one slice (--shard auto reads
# SLURM_ARRAY_TASK_ID and the array's size), then a job that depends on the array merges them.
#
#   bash examples/slurm-array.sh              # on the login node: submits the array and the merge
#
# (Not `sbatch examples/slurm-array.sh`: the #SBATCH --array line below would make that the array
# itself, each task with SLURM_ARRAY_TASK_ID set, and the merge would never be submitted.)
#
#SBATCH --job-name=nonobench
#SBATCH --array=0-9
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=01:00:00
#SBATCH --output=reports/runs/slurm-%A_%a.log
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-.}"

if [[ -z "${SLURM_ARRAY_TASK_ID:-}" ]]; then
  # Run as a plain script: submit the array, then the merge after every task has ended well.
  mkdir -p reports/runs   # Slurm does not create the folder of --output; reports/runs is not in a fresh clone
  array=$(sbatch --parsable "$0")
  sbatch --dependency="afterok:${array}" --job-name=nonobench-merge \
    --wrap="npx nonobench merge reports/runs/slurm-${array}.csv reports/runs/slurm-${array}-shard-*.csv"
  exit 0
fi

npx nonobench run corpus/puzzles --strategies all --workers "${SLURM_CPUS_PER_TASK:-1}" \
  --shard auto --quiet --out "reports/runs/slurm-${SLURM_ARRAY_JOB_ID}-shard-${SLURM_ARRAY_TASK_ID}.csv"

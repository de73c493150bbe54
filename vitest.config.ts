import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that replace modules (vi.mock, vi.doMock): they need a fresh module graph of their own. */
const MOCKING = ['test/corpus/corpus-robustness.test.ts', 'test/harness/external-model-stdout.test.ts', 'test/faults/merge-changed.test.ts', 'test/faults/output-short-write.test.ts', 'test/faults/output-pseudo-fs.test.ts'];

/**
 * The longest files, longest first. Without vitest's cache of past durations (a clean clone) files
 * start largest first, and a short file with one long test (ab's build, the 150,000-row run) started
 * last kept one core busy alone at the end.
 */
const LONGEST = [
  'test/ab/ab.test.ts',
  'test/faults/scale-big-runs.test.ts',
  'test/faults/run-safety.test.ts',
  'test/harness/external.test.ts',
  'test/faults/resume-settings.test.ts',
  'test/faults/exit-codes.test.ts',
  'test/harness/harness-robustness.test.ts',
  'test/harness/harness.test.ts',
  'test/harness/plugin-api.test.ts',
  'test/harness/definition.test.ts',
  'test/faults/isolation.test.ts',
  'test/cli/solve-cli.test.ts',
  'test/compare/compare-bench-check.test.ts',
  'test/harness/warmup-run.test.ts',
];

/** The mocking files first (a shared worker ends when an isolated file comes next), then LONGEST, then as vitest orders them. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      if (spec.project.config.isolate) return -1;
      const at = LONGEST.indexOf(relative(spec.project.config.root, spec.moduleId));
      return at === -1 ? LONGEST.length : at;
    };
    const sorted = await super.sort(files);
    return sorted.map((spec, at) => ({ spec, at, rank: rank(spec) })).sort((a, b) => a.rank - b.rank || a.at - b.at).map((s) => s.spec);
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One file per core: most files spend their time waiting on the CLI processes they start, and
    // vitest's default (one core left free) ran them one at a time on a 2-core machine.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'isolated', include: MOCKING } },
      // The rest share a worker process from file to file, rather than loading vitest and the modules
      // under test again for every file (see README on the suite's time).
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: MOCKING, isolate: false } },
    ],
  },
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

requireBuiltCli();

const newDir = tempDirs('bench-duplicates');

describe('nonobench bench --strategies', () => {
  it('a strategy listed twice is a usage error naming the option and the strategy, not tinybench\'s "Task … already exists"', () => {
    for (const [list, name] of [['overlap,overlap', 'overlap'], ['all,sat', 'sat']] as const) {
      const out = join(newDir(), 'bench.csv');
      const r = runCli('bench', '-s', list, '--time', '1', '--out', out);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`nonobench: --strategies lists strategy "${name}" twice\n(see nonobench bench --help)\n`);
      expect(r.out).toBe('');
      expect(existsSync(out)).toBe(false);
    }
  });
});

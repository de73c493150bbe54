import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';
import { DANCER_ROWS, executable, runDefinitionIn } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-busy');
requireBuiltCli();

describe("a solver that ends in time while the harness reads another one's output", () => {
  it('is measured to its own exit, not to when the busy harness saw it, and is no timeout', () => {
    const d = dir();
    const script = (name: string, text: string) => executable(d, name, text);
    // 64 MiB less a little of comment lines: seconds of reading for the grid adapter, on the harness's thread.
    const flood = script('flood.py', "#!/usr/bin/env python3\nimport sys\nsys.stdout.write('c\\n' * (32 * 1024 * 1024 - 1000))\n");
    const rows = DANCER_ROWS.join('\\n');
    // Answers webpbn #1 after 1.5 s (once the flood is being read), well within the 3 s limit.
    const innocent = script('innocent.sh', `#!/bin/sh\nsleep 1.5\nprintf '${rows}\\nunique\\n'\n`);
    const r = runDefinitionIn(
      d,
      `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]
configurations:
  - { name: flood, command: "${flood}", input: non, output: grid }
  - { name: innocent, command: "${innocent}", input: non, output: grid }
timeout: 3
`,
      '--workers',
      '2',
    );
    const byConfig = new Map(r.rows().map((row) => [row.config, row]));
    expect(byConfig.get('flood')!.status).toBe('error');
    const row = byConfig.get('innocent')!;
    expect([row.status, row.verified, row.error]).toEqual(['unique', 'true', '']);
    expect(Number(row.time_ms)).toBeGreaterThan(1500);
    expect(Number(row.time_ms)).toBeLessThan(3000);
  }, 120_000);
});

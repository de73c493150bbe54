import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';

const newDir = tempDirs('turns');
const TURNS = 'dist/test/bench/turns.js';

describe('turns.js', () => {
  it('takes several folders after --same, as a shell glob gives them (README)', () => {
    const dirs = [newDir(), newDir()];
    for (const dir of dirs)
      for (const side of ['base', 'new'])
        for (let r = 1; r <= 5; r++) copyFileSync('test/fixtures/csv/base.csv', join(dir, `${side}-round${r}.csv`));
    const r = spawnSync(process.execPath, [TURNS, '--same', ...dirs, '--samples', '2'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('A/A, base turns (10), 2 draws');
  });
});

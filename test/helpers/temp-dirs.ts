import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A maker of fresh temporary directories (`nonobench-<name>-…`), all removed once the calling test file or suite is done. */
export function tempDirs(name: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), `nonobench-${name}-`));
    made.push(dir);
    return dir;
  };
}

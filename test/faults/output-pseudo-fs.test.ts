import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ensureDir, writeOutputFile } from '../../harness/io/output-path.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// A folder like /proc: it exists, but a new child in it fails with ENOENT. Node's recursive mkdir then
// retries the parent (EEXIST) and the child (ENOENT) for ever at full CPU; here it throws instead of spinning.
const pseudo = vi.hoisted(() => ({ root: '' }));
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  const mkdirSync = ((path: string, options?: { recursive?: boolean }) => {
    if (pseudo.root !== '' && String(path).startsWith(`${pseudo.root}/`)) {
      if (options?.recursive) throw new Error('recursive mkdir under a pseudo file system never returns');
      throw Object.assign(new Error(`ENOENT: no such file or directory, mkdir '${path}'`), { code: 'ENOENT' });
    }
    return real.mkdirSync(path, options);
  }) as typeof real.mkdirSync;
  return { ...real, mkdirSync, default: { ...real, mkdirSync } };
});

const tmp = tempDirs('output-pseudo-fs');

describe('an output folder under a folder that refuses children (/proc, /sys)', () => {
  it('is one ENOENT error, not an endless recursive mkdir', () => {
    pseudo.root = tmp();
    expect(() => ensureDir(join(pseudo.root, 'a', 'b'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => writeOutputFile(join(pseudo.root, 'a', 'p.cnf'), 'p cnf 0 0\n')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('still creates missing folders one level at a time elsewhere', () => {
    pseudo.root = '';
    const dir = join(tmp(), 'x', 'y', 'z');
    ensureDir(dir);
    ensureDir(dir);
    writeOutputFile(join(dir, 'f.txt'), 'ok\n');
  });
});

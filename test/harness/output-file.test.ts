import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeOutputFile } from '../../harness/io/output-path.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('output-file');

describe('writeOutputFile', () => {
  it('replaces a file whole, creating its folders, and leaves nothing else beside it', () => {
    const d = dir();
    const file = join(d, 'a', 'b', 'page.html');
    writeOutputFile(file, 'first');
    writeOutputFile(file, 'second, longer');
    expect(readFileSync(file, 'utf8')).toBe('second, longer');
    expect(readdirSync(join(d, 'a', 'b'))).toEqual(['page.html']);
  });

  it('keeps the mode of the file it replaces', () => {
    const file = join(dir(), 'kept.svg');
    writeFileSync(file, 'old', { mode: 0o640 });
    writeOutputFile(file, 'new');
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

});

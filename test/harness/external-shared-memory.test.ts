import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';
import { DANCER_ROWS, executable, runDefinitionIn } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-shared-memory');
requireBuiltCli();

/** A Python program that maps `mib` MiB shared and anonymous (which RLIMIT_DATA does not count), touches it, waits `s` seconds, then answers webpbn #1. */
const sharedMapper = (mib: number, s: number) => `#!/usr/bin/env python3
import mmap, sys, time
m = mmap.mmap(-1, ${mib} << 20, flags=mmap.MAP_SHARED)
for i in range(0, ${mib} << 20, 4096):
    m[i] = 1
time.sleep(${s})
print(${JSON.stringify(DANCER_ROWS.join('\n'))})
print('unique')
`;

/**
 * A Python program that writes a file of `mib` MiB to /dev/shm (tmpfs), maps it private and read-only,
 * reads every page (its pages then count in RssShmem, though the program shares nothing), waits `s`
 * seconds, then answers webpbn #1.
 */
const tmpfsReader = (mib: number, s: number) => `#!/usr/bin/env python3
import mmap, os, time
path = '/dev/shm/nonobench-test-%d' % os.getpid()
f = open(path, 'w+b')
os.unlink(path)  # nothing left behind, however it ends
for _ in range(${mib}):
    f.write(b'\\1' * (1 << 20))
f.flush()
m = mmap.mmap(f.fileno(), 0, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ)
total = 0
for i in range(0, ${mib} << 20, 4096):
    total += m[i]
time.sleep(${s})
print(${JSON.stringify(DANCER_ROWS.join('\n'))})
print('unique')
`;

describe.runIf(process.platform === 'linux')('a program that maps shared memory', () => {
  it('is held to the memory cap, a memory row, while one that maps a little, or a tmpfs file private, answers', () => {
    const d = dir();
    const hog = executable(d, 'hog.py', sharedMapper(400, 8));
    const modest = executable(d, 'modest.py', sharedMapper(16, 1));
    const reader = executable(d, 'reader.py', tmpfsReader(300, 1));
    const r = runDefinitionIn(
      d,
      `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]
configurations:
  - { name: hog, command: "${hog}", input: non, output: grid }
  - { name: modest, command: "${modest}", input: non, output: grid }
  - { name: reader, command: "${reader}", input: non, output: grid }
timeout: 10
memory: 128
`,
      '--workers',
      '2',
    );
    const byConfig = new Map(r.rows().map((row) => [row.config, row]));
    const hogRow = byConfig.get('hog')!;
    expect([hogRow.status, hogRow.verified]).toEqual(['memory', '']);
    expect(hogRow.error).toMatch(/^over the 128 MiB cap with the memory it maps shared \(\d+ MiB in one process; its processes were killed\)$/);
    // Stopped once it passed the cap, not at its answer 8 s later.
    expect(Number(hogRow.time_ms)).toBeLessThan(6000);
    const modestRow = byConfig.get('modest')!;
    expect([modestRow.status, modestRow.verified, modestRow.error]).toEqual(['unique', 'true', '']);
    // A tmpfs file it maps private is not memory it shares.
    const readerRow = byConfig.get('reader')!;
    expect([readerRow.status, readerRow.verified, readerRow.error]).toEqual(['unique', 'true', '']);
  }, 60_000);
});

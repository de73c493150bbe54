import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BAD_CASES, BAD_DIR } from '../fixtures/bad-cases.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const CLI = 'dist/harness/cli.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs jobs a few at a time: the CLI start-up dominates, and the machine is shared. */
async function inBatches<T, R>(items: T[], size: number, job: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(job))));
  return out;
}

const tmp = tempDirs('bad')();
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npx tsc -p tsconfig.json\` first`);
});

describe('the CLI on malformed input', () => {
  const line = ([file, n, message]: [string, number, string]) => `${file}:${n}: ${message}`;

  it('prints FILE:LINE: message for every problem of every bad fixture (the folder at once), exits 2, no stack trace', async () => {
    // A directory input loads every puzzle file in path order and reports all their problems (files with
    // other extensions, such as garbage.dat, are not picked up from folders: the next test gives it by name).
    const out = join(tmp, 'all.json');
    const run = await cli(['convert', BAD_DIR, out]);
    const inPathOrder = BAD_CASES.filter((c) => /\.(non|nonpack|xml|json|txt)$/.test(c.input)).sort((a, b) => (a.input < b.input ? -1 : a.input > b.input ? 1 : 0));
    expect(run.stderr.split('\n').filter(Boolean)).toEqual(inPathOrder.flatMap((c) => c.problems.map(line)));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(out)).toBe(false);
  });

  it('prints the same for single fixtures of each format', async () => {
    const picked = ['goal-not-satisfying.non', 'colour.xml', 'json-syntax.json', 'tournament-bad-solution-questions.txt', 'garbage.dat', 'multiple-problems.non'];
    const cases = picked.map((name) => BAD_CASES.find((c) => c.input === `${BAD_DIR}/${name}`)!);
    expect(BAD_CASES.filter((c) => !/\.(non|nonpack|xml|json|txt)$/.test(c.input)).every((c) => cases.includes(c))).toBe(true);
    const runs = await inBatches(cases, 3, async (c) => {
      const out = join(tmp, `${c.input.replace(/\W/g, '_')}.json`);
      return { c, out, run: await cli(['convert', c.input, out]) };
    });
    for (const { c, out, run } of runs) {
      expect({ input: c.input, stderr: run.stderr.split('\n').filter(Boolean) }).toEqual({ input: c.input, stderr: c.problems.map(line) });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(existsSync(out)).toBe(false);
    }
  });

  it('reports an unreadable input and a bad output format as bad input (exit 2)', async () => {
    const [missing, format, unknownOut] = await Promise.all([
      cli(['convert', 'test/fixtures/none-such.non', join(tmp, 'x.json')]),
      cli(['convert', 'test/fixtures/formats/sample.non', join(tmp, 'x.json'), '--format', 'pdf']),
      cli(['convert', 'test/fixtures/formats/sample.non', join(tmp, 'x.csv')]),
    ]);
    expect(missing.stderr).toBe('test/fixtures/none-such.non:0: cannot read the file (no such file or directory)\n');
    expect(missing.code).toBe(2);
    expect(format.stderr).toBe('nonobench: --format must be non, json or xml, got "pdf"\n(see nonobench convert --help)\n');
    expect(format.code).toBe(2);
    expect(unknownOut.stderr).toMatch(/^nonobench: cannot tell the output format of ".*x\.csv": name it \.non, \.nonpack, \.json or \.xml, or give --format\n\(see nonobench convert --help\)\n$/);
    expect(unknownOut.code).toBe(2);
    // XML to standard output, which has no extension to tell it by, reads back as the same puzzle.
    const xml = await cli(['convert', 'test/fixtures/formats/sample.non', '-', '--format', 'xml']);
    expect(xml.code).toBe(0);
    writeFileSync(join(tmp, 'back.xml'), xml.stdout);
    const back = await cli(['convert', join(tmp, 'back.xml'), '-']);
    const direct = await cli(['convert', 'test/fixtures/formats/sample.non', '-']);
    expect(back.stdout.replace(/^(title|catalogue|by|copyright|license|source).*\n/gm, '')).toBe(direct.stdout.replace(/^(title|catalogue|by|copyright|license|source).*\n/gm, ''));
  });
});

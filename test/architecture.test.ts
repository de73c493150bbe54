import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layout's rules, checked on the sources' own imports: each job folder imports only what lies
// below it, so the folders stay the map README's "Architecture" draws.

const ROOTS = ['corpus', 'solvers', 'harness'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = posix.join(dir, name);
    if (name === 'puzzles' || name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.c?ts$/.test(name) ? [path] : [];
  });
}

const FILES = ROOTS.flatMap(sourceFiles);

/** The project folders a file imports from. */
function importedFolders(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => posix.dirname(posix.normalize(posix.join(posix.dirname(file), m[1]!))));
}

/** The job a folder belongs to: corpus/ is one; solvers/sat/* and other folders by their path (harness/cli with its commands is one). */
const jobOf = (folder: string) => folder.split('/').slice(0, folder.startsWith('corpus') ? 1 : folder.startsWith('solvers/sat') ? 3 : 2).join('/');

/** Which jobs each job may import, besides itself. */
const MAY_IMPORT: Record<string, string[]> = {
  corpus: [],
  'solvers/api': ['corpus'],
  'solvers/common': [],
  'solvers/line': ['corpus', 'solvers/api'],
  'solvers/propagation': ['corpus', 'solvers/api', 'solvers/line'],
  'solvers/search': ['corpus', 'solvers/api', 'solvers/common', 'solvers/line', 'solvers/propagation'],
  'solvers/sat/engine': ['solvers/common'],
  'solvers/sat/dimacs': ['corpus'],
  'solvers/sat/encodings': ['corpus', 'solvers/api', 'solvers/common', 'solvers/line', 'solvers/propagation', 'solvers/sat/dimacs'],
  'solvers/sat/puzzle': ['corpus', 'solvers/api', 'solvers/line', 'solvers/sat/engine', 'solvers/sat/encodings'],
  'solvers/symmetry': ['corpus'],
  'solvers/portfolio': ['corpus', 'solvers/api', 'solvers/common', 'solvers/line', 'solvers/propagation', 'solvers/search', 'solvers/sat/engine', 'solvers/sat/encodings', 'solvers/sat/puzzle', 'solvers/symmetry'],
  'solvers/strategies': ['corpus', 'solvers/api', 'solvers/common', 'solvers/line', 'solvers/propagation', 'solvers/search', 'solvers/sat/engine', 'solvers/sat/encodings', 'solvers/sat/dimacs', 'solvers/sat/puzzle', 'solvers/portfolio', 'solvers/symmetry'],
  'harness/io': ['corpus'],
  'harness/results': ['corpus', 'solvers/api', 'harness/io'],
  'harness/external': ['corpus', 'solvers/api', 'solvers/sat/dimacs', 'solvers/sat/encodings', 'harness/io', 'harness/results'],
  'harness/config': ['corpus', 'solvers/api', 'solvers/strategies', 'solvers/sat/encodings', 'harness/io', 'harness/results', 'harness/external'],
  'harness/run': ['corpus', 'solvers/api', 'solvers/strategies', 'harness/io', 'harness/results', 'harness/external', 'harness/config'],
  'harness/bench': ['corpus', 'solvers/api', 'solvers/line', 'harness/io', 'harness/results', 'harness/config', 'harness/run'],
};
const SOLVERS = Object.keys(MAY_IMPORT).filter((j) => j.startsWith('solvers/'));
const BELOW_CLI = [...SOLVERS, 'corpus', 'harness/io', 'harness/results', 'harness/external', 'harness/config', 'harness/run'];
Object.assign(MAY_IMPORT, {
  'harness/compare': BELOW_CLI,
  'harness/report': [...BELOW_CLI, 'harness/compare'],
  'harness/classify': [...BELOW_CLI, 'harness/report'],
  'harness/ab': [...BELOW_CLI, 'harness/compare'],
  'harness/history': [...BELOW_CLI, 'harness/compare', 'harness/report'],
  'harness/replay': [...BELOW_CLI, 'harness/report'],
});

describe('the layout', () => {
  it('every job folder imports only the jobs below it (solvers never the harness, nothing the CLI)', () => {
    const wrong: string[] = [];
    for (const file of FILES) {
      const job = jobOf(posix.dirname(file));
      if (job === 'harness' || job === 'harness/cli') continue; // the entry point and the commands use everything
      const allowed = MAY_IMPORT[job];
      if (!allowed) {
        wrong.push(`${file}: its folder ${job} has no rule here`);
        continue;
      }
      for (const target of importedFolders(file)) {
        const to = jobOf(target);
        if (to !== job && !allowed.includes(to)) wrong.push(`${file} imports ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no source file is over 500 lines, and no folder holds more than 14 source files', () => {
    const long = FILES.filter((f) => readFileSync(f, 'utf8').split('\n').length > 500);
    expect(long).toEqual([]);
    const perFolder = new Map<string, number>();
    for (const f of FILES) perFolder.set(posix.dirname(f), (perFolder.get(posix.dirname(f)) ?? 0) + 1);
    expect([...perFolder].filter(([, n]) => n > 14)).toEqual([]);
  });

  it('the CLI loads the module of the command it runs, and the charts (Vega) and definitions (YAML, zod) only where a command needs them', () => {
    // Static imports (not type-only, not import()) reachable from the entry point: every command pays for these.
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s+)?'([^']+)'/gms)) {
        const spec = m[1]!;
        if (spec.startsWith('.')) visit(posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
        else if (!spec.startsWith('node:')) packages.add(spec.split('/')[0]!);
      }
    };
    // The entry point loads no command's module: commands.ts imports the one a process runs.
    visit('harness/cli.ts');
    expect([...seen].filter((f) => /^harness\/cli\/(commands|verdicts)\//.test(f))).toEqual([]);
    const commands = FILES.filter((f) => /^harness\/cli\/(commands|verdicts)\/[^/]+\.ts$/.test(f));
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) visit(command);
    expect(seen.size).toBeGreaterThan(50); // the walk does follow the commands' imports
    expect(packages).toContain('commander');
    expect([...packages].filter((p) => ['vega', 'vega-lite', 'yaml', 'zod'].includes(p))).toEqual([]);
  });

  it('every test file that replaces modules (vi.mock) is one vitest.config.ts runs in a process of its own', () => {
    // The other files share their worker process: a module they loaded first would not be replaced.
    const config = readFileSync('vitest.config.ts', 'utf8');
    const mocking = sourceFiles('test').filter((file) => file.endsWith('.test.ts') && /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    for (const file of mocking) expect(config, file).toContain(`'${file}'`);
  });

  it('every folder of code says what it owns in a README', () => {
    const folders = [...new Set(FILES.map((f) => posix.dirname(f)))].filter((d) => !d.startsWith('harness/cli/'));
    expect(folders.filter((d) => !statSync(join(d, 'README.md'), { throwIfNoEntry: false }))).toEqual([]);
  });
});

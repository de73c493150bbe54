import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('environment');
const gitCommitOf = (environmentModule: string, cwd: string) =>
  execFileSync(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(environmentModule)}).then((m) => console.log(JSON.stringify(m.runEnvironment().git_commit)))`], { cwd, encoding: 'utf8' }).trim();

it("records no commit when nonobench is installed inside another project's git checkout", () => {
  const host = tmp();
  execFileSync('git', ['init', '-q'], { cwd: host });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'host'], { cwd: host });
  const installed = join(host, 'node_modules', 'nonobench');
  mkdirSync(installed, { recursive: true });
  cpSync(resolve('package.json'), join(installed, 'package.json'));
  cpSync(resolve('dist'), join(installed, 'dist'), { recursive: true });
  expect(gitCommitOf(join(installed, 'dist/harness/run/environment.js'), host)).toBe('""');
});

it.skipIf(!existsSync('.git'))('records the checkout\'s own commit, marked -dirty with uncommitted changes', () => {
  const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
  expect(JSON.parse(gitCommitOf(resolve('dist/harness/run/environment.js'), tmp()))).toMatch(new RegExp(`^${head}(-dirty)?$`));
});

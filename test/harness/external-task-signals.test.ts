import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signalTask } from '../../harness/external/task-signals.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('task-signals');
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** A process sleeping in `cwd`, with none of a task's group or mark. */
function bystander(cwd: string): ChildProcess {
  const child = spawn('sleep', ['30'], { cwd, stdio: 'ignore', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  started.push(child);
  return child;
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const settle = () => new Promise((r) => setTimeout(r, 200));

describe.runIf(process.platform === 'linux')("signalTask's folder match", () => {
  it('kills a process working in the task folder or below it, not one in a folder its path is a prefix of', async () => {
    const root = dir();
    const task = join(root, 'task');
    mkdirSync(join(task, 'sub'), { recursive: true });
    mkdirSync(`${task}-other`);
    const inside = bystander(join(task, 'sub'));
    const beside = bystander(`${task}-other`);
    await settle();
    signalTask(null, 'feedface', -1, 'SIGKILL', [task]);
    await settle();
    expect(alive(inside)).toBe(false);
    expect(alive(beside)).toBe(true);
  });

  it('kills nothing through a task folder a solver replaced with a link to another folder', async () => {
    const root = dir();
    const victim = join(root, 'home');
    mkdirSync(victim);
    const task = join(root, 'task');
    // What a solver working in its folder can do: empty it, remove it, and leave a link in its place.
    symlinkSync(victim, task);
    const shell = bystander(victim);
    await settle();
    signalTask(null, 'feedface', -1, 'SIGKILL', [task]);
    await settle();
    expect(alive(shell)).toBe(true);
    rmSync(task);
  });
});

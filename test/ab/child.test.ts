import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';

requireBuiltCli();

describe('ab: a stop signal and the programs it waits on', () => {
  it('a signal that comes as ab starts a child reaches that child, which ab then knows it stopped (with no listener it ended ab at once, leaving the child running)', () => {
    // Between two children, in the very turn that starts the second: ab is signalled by itself.
    const script = `
      import { runChild } from ${JSON.stringify(resolve('dist/harness/ab/child.js'))};
      await runChild('true', [], '.');
      process.kill(process.pid, 'SIGINT');
      const end = await runChild('sleep', ['30'], '.');
      console.log(JSON.stringify({ stoppedBy: end.stoppedBy, signal: end.signal }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect([r.status, r.signal, r.stdout.trim()]).toEqual([0, null, JSON.stringify({ stoppedBy: 'SIGINT', signal: 'SIGINT' })]);
  });

  it('a signal while no child runs ends ab as its default action would', () => {
    const script = `
      import { runChild } from ${JSON.stringify(resolve('dist/harness/ab/child.js'))};
      await runChild('true', [], '.');
      setTimeout(() => process.kill(process.pid, 'SIGTERM'), 10);
      setTimeout(() => console.log('still here'), 2000);
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect([r.status, r.signal, r.stdout]).toEqual([null, 'SIGTERM', '']);
  });
});

import { groupIsTasks, kill, removeDir, signalTask } from './task-signals.js';

/**
 * The reaper: a process of its own, which the harness starts at its first external solver call
 * (see `reaper-link.ts`) and tells on its standard input, a line of JSON each, of every call's
 * process group as it starts (`{"pgid", "token", "dirs"}`) and as it ends (`{"pgid"}`). When that
 * input ends, the harness is gone, however it died (SIGKILL, the OOM killer, which run no exit
 * handler): the reaper kills every group still listed, as the harness would have, removes its
 * folders, and exits. It prints nothing.
 */

interface Listed {
  token: string;
  dirs: string[];
}

const listed = new Map<number, Listed>();

/** One line of the harness's; anything else (a line cut by the harness's death) is ignored. */
function take(line: string): void {
  let event: { pgid?: unknown; token?: unknown; dirs?: unknown };
  try {
    event = JSON.parse(line);
  } catch {
    return;
  }
  // A group id of 0 or 1 would signal the reaper's own group or every process it may signal.
  const { pgid, token, dirs } = event;
  if (typeof pgid !== 'number' || !Number.isInteger(pgid) || pgid < 2) return;
  if (token === undefined) listed.delete(pgid);
  else if (typeof token === 'string' && /^[0-9a-f]+$/.test(token) && Array.isArray(dirs) && dirs.every((d) => typeof d === 'string')) listed.set(pgid, { token, dirs });
}

/** Kills what is left of every listed call and removes its folders. */
function reapAll(): void {
  for (const [pgid, { token, dirs }] of listed) {
    // The group is killed only while it is still the task's (its id may have been reused since the
    // harness died); the processes carrying the task's token are the task's wherever they are.
    const ours = groupIsTasks(pgid, token);
    if (ours) kill(-pgid, 'SIGKILL');
    signalTask(ours ? pgid : null, token, -1, 'SIGKILL', dirs);
    for (const dir of dirs) removeDir(dir);
  }
  listed.clear();
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const lines = (pending + chunk).split('\n');
  pending = lines.pop()!;
  for (const line of lines) take(line);
});
process.stdin.on('end', () => {
  reapAll();
  process.exit(0);
});
// A broken input is as good as its end: the harness is gone.
process.stdin.on('error', () => {
  reapAll();
  process.exit(0);
});
// Listening: the harness's first solver may start (the harness closes the channel itself after a wait).
if (process.connected) process.disconnect();

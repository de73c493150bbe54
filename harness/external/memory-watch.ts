import { readdirSync, readFileSync } from 'node:fs';

/**
 * What RLIMIT_DATA leaves out: memory a program maps shared (`MAP_SHARED` anonymous memory, System V
 * or POSIX shared memory, a file of /dev/shm mapped) is resident as shmem, not data, so the kernel's
 * cap never sees it. The harness looks at each of a call's processes (Linux /proc) at short
 * intervals instead, and stops a call one of whose processes holds more than the cap.
 */

/** How often a call's processes are looked at, at most. */
export const MEMORY_POLL_MS = 100;
/** Between two looks, at least this many times as long as the last look took: a call of hundreds of processes takes the harness's thread a tenth of its time at most. */
export const POLL_SPACING = 10;
/** The most processes of one call looked at in one poll (a fork bomb's are many, and all go with the call). */
const MAX_PROCESSES = 2000;

/** `root` and its descendants, through /proc's lists of each thread's children: cheap, unlike a walk of all /proc. */
function processTree(root: number): number[] {
  const found = [root];
  for (let i = 0; i < found.length && found.length < MAX_PROCESSES; i++) {
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${found[i]}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const tid of threads) {
      try {
        for (const child of readFileSync(`/proc/${found[i]}/task/${tid}/children`, 'latin1').split(' ')) if (child) found.push(Number(child));
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return found;
}

const RSS_ANON = /^RssAnon:\s*(\d+) kB/m;
const RSS_SHMEM = /^RssShmem:\s*(\d+) kB/m;
const kbOf = (status: string, field: RegExp) => Number(field.exec(status)?.[1] ?? 0);

const MAPPING = /^[0-9a-f]+-[0-9a-f]+ \S\S\S(\S) /;
const RSS = /^Rss:\s*(\d+) kB/;

/** The resident KiB of the mappings `smaps` (a /proc/PID/smaps text) lists as shared ('s' in their permissions). */
export function sharedMappingsKb(smaps: string): number {
  let kb = 0;
  let shared = false;
  for (const line of smaps.split('\n')) {
    const mapping = MAPPING.exec(line);
    if (mapping) shared = mapping[1] === 's';
    else if (shared) {
      const rss = RSS.exec(line);
      if (rss) kb += Number(rss[1]);
    }
  }
  return kb;
}

/** Shared memory a process may map without being looked at further (a semaphore, a small ring for IPC). */
const SHMEM_IGNORED_KB = 1024;

/**
 * The memory of the first process of the tree under `root` that holds more than `capKb` once its
 * shared memory is counted: its private anonymous pages (RssAnon, which the cap limits) and the
 * shared memory it maps shared (RssShmem of its shared mappings, which the cap does not), in KiB;
 * 0 when none does. A process with (almost) no shared memory is left to the kernel's cap alone.
 */
export function overCapKb(root: number, capKb: number): number {
  for (const pid of processTree(root)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'latin1');
      const shmem = kbOf(status, RSS_SHMEM);
      if (shmem <= SHMEM_IGNORED_KB) continue;
      if (kbOf(status, RSS_ANON) + shmem <= capKb) continue;
      // RssShmem also counts pages of tmpfs files mapped private (a solver's input on a tmpfs /tmp, read
      // through mmap), which are no memory of the program's: only what it maps shared counts, and of
      // that only shmem (a disk file mapped shared is the page cache's).
      const held = kbOf(status, RSS_ANON) + Math.min(shmem, sharedMappingsKb(readFileSync(`/proc/${pid}/smaps`, 'latin1')));
      if (held > capKb) return held;
    } catch {
      // Gone meanwhile.
    }
  }
  return 0;
}

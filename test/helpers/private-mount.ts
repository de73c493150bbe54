import { spawnSync } from 'node:child_process';

/**
 * Whether a shell may mount a file system of its own here (a tmpfs: a tiny or read-only disk), in a
 * private mount namespace as root of its own user namespace; where unprivileged user namespaces are
 * off (some distributions' defaults), the tests that need one are skipped rather than failed.
 */
export const canMountPrivately = process.platform === 'linux' && spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'true']).status === 0;

/** Runs a shell script in such a namespace; its mounts vanish with it. */
export const inPrivateMount = (script: string) => spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script], { encoding: 'utf8' });

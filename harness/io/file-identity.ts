import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { noteInputFile } from '../../corpus/input-files.js';

/** The first 12 hex digits of the SHA-256 of some text or bytes. */
export const shortHash = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex').slice(0, 12);

/**
 * `PATH@HASH` of a file: what identifies a plugin module or an external program in the rows.
 * Throws for anything but a regular file: reading a named pipe could block for ever, a device
 * without end. The file is noted as an input, so that no output of the command replaces it.
 */
export function fileIdentity(path: string): string {
  const stats = statSync(path);
  if (!stats.isFile()) throw new Error(`${path}: not a regular file`);
  noteInputFile(stats);
  return `${path}@${shortHash(readFileSync(path))}`;
}

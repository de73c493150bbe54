import { closeSync, constants, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { writeAll } from '../io/write-all.js';

/**
 * Files in a folder an external solver can write to, read and written so that the solver cannot
 * turn them against the harness: what it put in a file's place (a named pipe, whose open would
 * wait for ever; a link to a device, or to a file outside the folder) is neither followed by a
 * write nor read as a file.
 */

const READ_CHUNK_BYTES = 1 << 16;

/** A file that is not one the harness reads: `what` names it in the message. */
export class ScratchFileError extends Error {}

/**
 * Writes `text` to a new file at `path`, removing first whatever is there (a link the solver left
 * is removed, not followed: the new file is created exclusively). In pieces: a large puzzle's CNF
 * is longer than one string can be, and takes its thread tens of seconds to write, so others (the
 * limits of the solvers running beside it) are let run between them.
 */
export async function writeFresh(path: string, text: string | Iterable<string>): Promise<void> {
  rmSync(path, { force: true, recursive: true });
  const fd = openSync(path, 'wx');
  try {
    for (const piece of typeof text === 'string' ? [text] : text) {
      await nextTurn();
      writeAll(fd, Buffer.from(piece, 'utf8'));
    }
  } finally {
    closeSync(fd);
  }
}

/** What kind of file a stat describes, for a message. */
const kindOf = (stat: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }) =>
  stat.isDirectory() ? 'a folder' : stat.isFIFO() ? 'a named pipe' : stat.isSocket() ? 'a socket' : 'a device';

/**
 * The text of the regular file at `path` (a link to one is followed: reading harms nothing),
 * refused when it is anything else or longer than `maxBytes` (`limit` says why that is the most:
 * "of N bytes, more than LIMIT"). ENOENT passes through, for the caller to say what is missing.
 */
export function readRegularFile(path: string, what: string, maxBytes: number, limit = `the ${maxBytes} it can need`): string {
  // Non-blocking: opening a named pipe then returns at once, to be refused below.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ScratchFileError(`${what} is ${kindOf(stat)}, not a regular file`);
    if (stat.size > maxBytes) throw new ScratchFileError(`${what} of ${stat.size} bytes, more than ${limit}`);
    // The size is not always the length: a /proc or /sys file (a link to /proc/self/pagemap) says 0
    // and reads on for hundreds of GiB. So reading stops past maxBytes, whatever the size says (in
    // whole 64 KiB reads: pagemap refuses a read that is not a multiple of 8 bytes).
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw new ScratchFileError(`${what} of more than ${maxBytes} bytes (its size said ${stat.size}), more than ${limit}`);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

import { fstatSync } from 'node:fs';
import { writeAll } from './write-all.js';

/**
 * When stdout is a regular file (`nonobench cnf P > out.cnf`), Node writes each chunk with one
 * writeSync and ignores a short count, and libuv drops the error (EFBIG past a file-size limit,
 * ENOSPC on a full disk) that stops a write it had begun: the output would be cut off with exit 0.
 * Written through writeAll, the rest of a short write is tried again and its error fails the write,
 * which the stream reports as its 'error' event, as it does a failed write to any stdout. Pipes and
 * terminals keep Node's own writing (a reader that stops early stays an EPIPE, quietly dropped).
 */
export function writeStdoutFileWhole(): void {
  if (!stdoutIsRegularFile()) return;
  process.stdout._write = (chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void) => {
    try {
      writeAll(1, typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  };
}

function stdoutIsRegularFile(): boolean {
  try {
    return fstatSync(1).isFile();
  } catch {
    // A closed stdout: nothing to make whole.
    return false;
  }
}

/** Why stdout could not be written, in a few words: the error's code, or writeAll's whole line for EFBIG, which names the limit. */
export function stdoutFailureReason(err: NodeJS.ErrnoException): string {
  return err.code === 'EFBIG' ? err.message : (err.code ?? err.message);
}

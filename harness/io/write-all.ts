import { writeSync } from 'node:fs';

/** writeSync's form: bytes written, which may be fewer than asked (a nearly full disk). Tests pass a failing one. */
export type WriteBytes = (fd: number, buffer: Uint8Array, offset: number, length: number) => number;

/**
 * Writes bytes `offset` to `offset + length` whole: writeSync may write only part of them (a nearly
 * full disk), so the rest is written, or the error thrown. A write that takes nothing would be tried
 * for ever: it is an ENOSPC error.
 */
export function writeAll(fd: number, bytes: Uint8Array, offset = 0, length = bytes.length - offset, write: WriteBytes = writeSync): void {
  for (let done = 0; done < length; ) {
    let written: number;
    try {
      written = write(fd, bytes, offset + done, length - done);
    } catch (err) {
      throw withSizeLimitNamed(err);
    }
    if (written <= 0) throw Object.assign(new Error('ENOSPC: no space left: a write took no bytes'), { code: 'ENOSPC' });
    done += written;
  }
}

/** EFBIG's own message ("file too large") does not say which limit: most often a file-size limit (`ulimit -f`). */
export function withSizeLimitNamed(err: unknown): unknown {
  if ((err as NodeJS.ErrnoException | null)?.code !== 'EFBIG') return err;
  return Object.assign(new Error("EFBIG: file too large: past the file-size limit (ulimit -f) or the file system's largest file"), { code: 'EFBIG' });
}

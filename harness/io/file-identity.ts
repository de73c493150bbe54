import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The first 12 hex digits of the SHA-256 of some text or bytes. */
export const shortHash = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex').slice(0, 12);

/** `PATH@HASH` of a file: what identifies a plugin module or an external program in the rows. */
export const fileIdentity = (path: string): string => `${path}@${shortHash(readFileSync(path))}`;

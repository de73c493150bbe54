import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { noteInputFile } from '../../corpus/input-files.js';
import { CsvError, Parser, type Options as ParseOptions } from 'csv-parse';
import { parse as parseWhole } from 'csv-parse/sync';
import { cannotRead, InputError } from '../../corpus/errors.js';
import { decodeWindows1252 } from '../../corpus/formats/text.js';

/**
 * Reading CSV (the rules are at the top of csv.ts) with csv-parse, fed a file in chunks so that no
 * file is ever held whole. Around it, what is the project's own: the encoding of the file, the line
 * where each record starts, the byte offsets of each record (for merge's second pass), the
 * `FILE:LINE: …` messages, and the torn last record a killed writer leaves.
 */

/** A malformed CSV text at a (1-based) line; file readers turn it into `FILE:LINE: message`. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

const LF = 0x0a;
const CR = 0x0d;

const CHUNK_BYTES = 4 << 20;
/** Longest record accepted: beyond it the file is broken (a quote never closed), not long. */
const MAX_RECORD_CHARS = 64 << 20;
/** How many lines a torn quoted record may span before the file is judged broken, not torn. */
const MAX_TORN_LINES = 20;

/**
 * csv-parse as RFC 4180 reads: fields as arrays (the header is checked here), every record as wide
 * as the header, blank lines skipped, a UTF-8 byte-order mark dropped, CRLF or LF ending a record
 * (mixed: a CRLF file resumed by an older version; a lone CR is data), quotes strict, and what is
 * inside quotes kept as written (the record delimiter is given, never guessed from the text).
 */
const PARSE_OPTIONS: ParseOptions = {
  bom: true,
  columns: false,
  relax_column_count: false,
  relax_quotes: false,
  skip_empty_lines: true,
  record_delimiter: ['\r\n', '\n'],
  max_record_size: MAX_RECORD_CHARS,
};

/**
 * csv-parse's streaming Parser, driven synchronously: every reader here is synchronous (a resume
 * checks its file in a constructor; compare, report and merge read files in turn), so the Parser's
 * own Transform steps are called in place of a pipe, and the records it pushes go to `onRecord`.
 */
class RecordParser extends Parser {
  constructor(private readonly onRecord: (record: string[]) => void) {
    super(PARSE_OPTIONS);
  }

  override push(record: unknown): boolean {
    if (record !== null) this.onRecord(record as string[]);
    return true;
  }

  /** Parses the next bytes (null: the end of the input); a CsvError (or what `onRecord` threw) is thrown. */
  feed(bytes: Buffer | null): void {
    let failure: Error | null | undefined;
    if (bytes) this._transform(bytes, 'buffer' as BufferEncoding, (err) => (failure = err));
    else this._flush((err) => (failure = err));
    if (failure) throw failure;
  }
}

// ---------- encodings ----------

/** How a file's bytes are text. */
export type CsvEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

/** Bytes a piece of text takes in an encoding other than UTF-8 (one byte a character, or two). */
const BYTES_PER_UNIT: Record<Exclude<CsvEncoding, 'utf-8'>, number> = { 'windows-1252': 1, 'utf-16le': 2, 'utf-16be': 2 };

/** Thrown inside a scan when the bytes are not UTF-8: the file is read again as Windows-1252. */
class NotUtf8 extends Error {}

/** Bytes at the end of `b` that start a UTF-8 sequence the next bytes must finish. */
function openSequence(b: Uint8Array): number {
  for (let k = 1; k <= Math.min(3, b.length); k++) {
    const c = b[b.length - k]!;
    if ((c & 0xc0) === 0x80) continue;
    const length = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return length > k ? k : 0;
  }
  return 0;
}

/**
 * The bytes csv-parse is given, as UTF-8: a UTF-8 file's own bytes (checked, so that a file that is
 * not UTF-8 is read again as Windows-1252), or the text of a Windows-1252 or UTF-16 file encoded
 * again. `next` gives the next piece, null at the end. A UTF-8 sequence cut by the end of the file
 * (a torn write) is left out.
 */
interface Source {
  encoding: CsvEncoding;
  /** File bytes before the first piece (a byte-order mark csv-parse is not given). */
  skipped: number;
  next: () => Buffer | null;
}

/** The pieces of a file in `encoding` (null: UTF-16 by its byte-order mark, else UTF-8). */
function fileSource(path: string, fd: number, encoding: CsvEncoding | null, chunkBytes: number): Source {
  chunkBytes = Math.max(4, chunkBytes); // the first piece holds any byte-order mark
  let position = 0;
  const read = (): Buffer | null => {
    // A new buffer each time: csv-parse keeps a view of the end of the last piece.
    const buffer = Buffer.allocUnsafe(chunkBytes);
    let n: number;
    try {
      n = readSync(fd, buffer, 0, chunkBytes, position);
    } catch (err) {
      throw cannotRead(path, err);
    }
    position += n;
    return n > 0 ? buffer.subarray(0, n) : null;
  };
  let first = read();
  const bom = (...bytes: number[]) => first !== null && bytes.every((b, i) => first![i] === b);
  if (encoding === null) encoding = bom(0xff, 0xfe) ? 'utf-16le' : bom(0xfe, 0xff) ? 'utf-16be' : 'utf-8';
  let skipped = 0;
  if (encoding.startsWith('utf-16')) skipped = 2;
  // A UTF-8 byte-order mark before text that is not UTF-8 is still no text.
  else if (encoding === 'windows-1252' && bom(0xef, 0xbb, 0xbf)) skipped = 3;
  if (first) first = first.subarray(skipped);
  const take = () => {
    const piece = first ?? read();
    first = null;
    return piece;
  };

  if (encoding === 'utf-8') {
    let open: Buffer = Buffer.alloc(0); // the start of a sequence cut by the end of the last piece
    return {
      encoding,
      skipped,
      next: () => {
        const piece = take();
        if (!piece) return null;
        const bytes = open.length > 0 ? Buffer.concat([open, piece]) : piece;
        const cut = openSequence(bytes);
        if (!isUtf8(bytes.subarray(0, bytes.length - cut))) throw new NotUtf8();
        open = Buffer.from(bytes.subarray(bytes.length - cut));
        return bytes.subarray(0, bytes.length - cut);
      },
    };
  }
  const decode =
    encoding === 'windows-1252'
      ? (bytes: Buffer | null) => (bytes ? decodeWindows1252(bytes) : '')
      : (() => {
          const decoder = new TextDecoder(encoding, { ignoreBOM: true });
          return (bytes: Buffer | null) => (bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode());
        })();
  let ended = false;
  return {
    encoding,
    skipped,
    next: () => {
      if (ended) return null;
      const piece = take();
      ended = piece === null;
      return Buffer.from(decode(piece), 'utf8');
    },
  };
}

/** Bytes of a file as text in its encoding (as a scan found it). */
export function decodeCsvBytes(bytes: Uint8Array, encoding: CsvEncoding): string {
  if (encoding === 'windows-1252') return decodeWindows1252(bytes);
  return new TextDecoder(encoding).decode(bytes);
}

// ---------- where records are ----------

/**
 * The bytes given to csv-parse from a cursor on: the cursor moves from record to record, counting
 * line feeds (the line of a record) and, for a file not in UTF-8, the file bytes the text took.
 */
class Cursor {
  private chunks: Buffer[] = [];
  private starts: number[] = [];
  /** Bytes given so far. */
  total = 0;
  /** The cursor: a position in the bytes given, its line and its offset in the file. */
  pos = 0;
  line = 1;
  file: number;

  constructor(
    skipped: number,
    private readonly unitBytes: number | null,
  ) {
    this.file = skipped;
  }

  add(bytes: Buffer): void {
    // Pieces behind the cursor are let go (but for the two bytes before it: a line end is looked at).
    while (this.chunks.length > 0 && this.starts[0]! + this.chunks[0]!.length < this.pos - 1) {
      this.chunks.shift();
      this.starts.shift();
    }
    this.chunks.push(bytes);
    this.starts.push(this.total);
    this.total += bytes.length;
  }

  /** The byte at `at` (-1 past the end or behind what is kept). */
  byteAt(at: number): number {
    for (let k = this.chunks.length - 1; k >= 0; k--) {
      if (at >= this.starts[k]!) return at - this.starts[k]! < this.chunks[k]!.length ? this.chunks[k]![at - this.starts[k]!]! : -1;
    }
    return -1;
  }

  /** Line feeds from the cursor to `to`; with `move`, the cursor goes there. */
  advance(to: number, move = true): number {
    let lines = 0;
    let file = 0;
    for (let k = 0; k < this.chunks.length; k++) {
      const chunk = this.chunks[k]!;
      const start = this.starts[k]!;
      const from = Math.max(this.pos, start) - start;
      const end = Math.min(to, start + chunk.length) - start;
      if (end <= from) continue;
      for (let i = chunk.indexOf(LF, from); i >= 0 && i < end; i = chunk.indexOf(LF, i + 1)) lines++;
      if (this.unitBytes !== null) file += this.unitBytes * chunk.toString('utf8', from, end).length;
      else file += end - from;
    }
    if (move) {
      this.pos = to;
      this.line += lines;
      this.file += file;
    }
    return lines;
  }

  /** The bytes given from `from` to `to` (both at or after what is kept). */
  slice(from: number, to: number): Buffer {
    const parts: Buffer[] = [];
    for (let k = 0; k < this.chunks.length; k++) {
      const start = this.starts[k]!;
      const chunk = this.chunks[k]!;
      const a = Math.max(from, start) - start;
      const b = Math.min(to, start + chunk.length) - start;
      if (b > a) parts.push(chunk.subarray(a, b));
    }
    return Buffer.concat(parts);
  }

  /** Moves past blank lines (no record: csv-parse skips them). */
  skipBlankLines(): void {
    for (;;) {
      const b = this.byteAt(this.pos);
      if (b === LF) this.advance(this.pos + 1);
      else if (b === CR && this.byteAt(this.pos + 1) === LF) this.advance(this.pos + 2);
      else return;
    }
  }
}

// ---------- scanning a file ----------

export interface CsvScanOptions {
  /** Called with the header, before any record (a caller checks its columns there). */
  header?: (columns: readonly string[]) => void;
  /** Put before every message, e.g. `cannot resume: `. */
  context?: string;
  /** Called before the file is read again from its start as Windows-1252 (it is not valid UTF-8): forget what was visited. */
  restart?: () => void;
  /** Bytes read at a time (tests use tiny ones, to cut records and characters everywhere). */
  chunkBytes?: number;
}

/** One record as visited. */
export interface CsvRow {
  /** Its fields, by column. */
  fields: readonly string[];
  /** File line where the record starts (the header is line 1). */
  line: number;
  /** Byte offsets in the file of the record's start and of the end of its line end. */
  start: number;
  end: number;
}

/** What a scan found besides the records. */
export interface CsvScan {
  columns: string[];
  encoding: CsvEncoding;
  /** The header ends in CRLF. */
  crlf: boolean;
  records: number;
  /** 1 when a torn last record was dropped. */
  dropped: number;
  /** Bytes of the file before the torn record (all of it when there is none). */
  validBytes: number;
  /** The last record kept (or the header) ends with a line end. */
  lastEol: boolean;
}

/** csv-parse's message for an error it found in the record starting at `line`. */
function syntaxError(err: CsvError & { record?: unknown[] }, line: number, width: number): CsvSyntaxError {
  switch (err.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH': {
      const n = err.record?.length ?? 0;
      return new CsvSyntaxError(line, `${n} field${n === 1 ? '' : 's'} where the header has ${width}`);
    }
    case 'INVALID_OPENING_QUOTE':
      return new CsvSyntaxError(line, 'a quote inside a field that does not start with one (quote the field and double its quotes)');
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new CsvSyntaxError(line, 'a closing quote must be followed by a comma or the end of the line');
    case 'CSV_MAX_RECORD_SIZE':
      return new CsvSyntaxError(line, `a record longer than ${MAX_RECORD_CHARS >> 20} Mi characters (a quote that is never closed?)`);
    default:
      return new CsvSyntaxError(line, `not a CSV (${err.message})`);
  }
}

/**
 * Whether text that starts a record and ends inside a quoted field has, after its first line, a
 * whole line that reads as a record of the header's width. A killed writer leaves a prefix of one
 * record, and a line inside a field is its text (a line of exactly width - 1 commas and no quote
 * would be a coincidence); whole records after an open quote mean a stray quote in the middle of a
 * file, whose rows must not be dropped as a torn tail.
 */
function holdsWholeRecord(tail: Buffer, width: number): boolean {
  const lines = tail.toString('utf8').split('\n');
  // Complete lines only: the first is where the record starts, the last has no line end.
  for (let i = 1; i < lines.length - 1; i++) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (line === '') continue;
    try {
      if (parseRecord(line).length === width) return true;
    } catch {
      // Not a record on its own: text of the open field.
    }
  }
  return false;
}

/** Reads `source` through csv-parse: `visit` sees each record after the header. Errors are CsvSyntaxError. */
function scan(source: Source, visit: (row: CsvRow) => void, header?: CsvScanOptions['header']): CsvScan {
  const cursor = new Cursor(source.skipped, source.encoding === 'utf-8' ? null : BYTES_PER_UNIT[source.encoding]);
  const result: CsvScan = { columns: [], encoding: source.encoding, crlf: false, records: 0, dropped: 0, validBytes: 0, lastEol: true };
  let width = -1;
  const row: CsvRow = { fields: [], line: 0, start: 0, end: 0 };
  const parser = new RecordParser((record) => {
    cursor.skipBlankLines();
    const end = parser.info.bytes;
    row.line = cursor.line;
    row.start = cursor.file;
    cursor.advance(end);
    const eol = cursor.byteAt(end - 1) === LF;
    if (width < 0) {
      width = record.length;
      result.columns = record;
      // No header name holds a NUL: binary data (which may hold CRs too, read as the Mac case below).
      if (record.some((c) => c.includes('\0'))) throw new CsvSyntaxError(1, 'not a text file (binary data)');
      // A CR inside a header name: the lines end in CR alone (as older Mac programs save CSV), read as one line.
      if (record.some((c) => c.includes('\r')))
        throw new CsvSyntaxError(1, 'its lines end in CR alone (as older Mac programs save CSV): save it with LF or CRLF line ends');
      const seen = new Set<string>();
      for (const c of record) {
        if (seen.has(c)) throw new CsvSyntaxError(1, `not a run CSV (column "${c}" appears twice in the header)`);
        seen.add(c);
      }
      result.crlf = eol && cursor.byteAt(end - 2) === CR;
      result.lastEol = eol;
      header?.(result.columns);
      return;
    }
    row.fields = record;
    row.end = cursor.file;
    result.records++;
    result.lastEol = eol;
    visit(row);
  });
  /** Ends the scan at a torn last record: the file is read up to its start. */
  const torn = () => {
    cursor.skipBlankLines();
    result.dropped = 1;
    result.validBytes = cursor.file;
  };
  // A CR at the end of a piece waits for the next one: at the end of the file it is no line end.
  let cr: Buffer | null = null;
  for (;;) {
    let piece = source.next();
    if (cr && piece) piece = Buffer.concat([cr, piece]);
    cr = null;
    if (piece && piece[piece.length - 1] === CR) {
      cr = piece.subarray(piece.length - 1);
      piece = piece.subarray(0, piece.length - 1);
    }
    try {
      if (piece === null) {
        parser.feed(null);
        break;
      }
      if (piece.length === 0) continue;
      cursor.add(piece);
      parser.feed(piece);
    } catch (err) {
      if (!(err instanceof CsvError)) throw err;
      const end = piece === null;
      if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
        if (width < 0) throw new CsvSyntaxError(1, 'not a CSV (Quote Not Closed: a quote in the header is never closed)');
        cursor.skipBlankLines();
        if (cursor.advance(cursor.total, false) + 1 > MAX_TORN_LINES)
          throw new CsvSyntaxError(cursor.line, `a quoted field is never closed (it runs over ${MAX_TORN_LINES} lines to the end of the file)`);
        if (holdsWholeRecord(cursor.slice(cursor.pos, cursor.total), width))
          throw new CsvSyntaxError(cursor.line, 'a quoted field is never closed: the records after it would be read as its text (a stray quote?)');
        torn();
        return result;
      }
      // The last record, without its line end and short of fields: cut by a killed writer.
      const last = end && parser.info.bytes === cursor.total && cursor.byteAt(cursor.total - 1) !== LF;
      if (err.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' && last && width >= 0 && ((err as { record?: unknown[] }).record?.length ?? width) < width) {
        torn();
        return result;
      }
      cursor.skipBlankLines();
      throw syntaxError(err, cursor.line, width);
    }
  }
  cursor.advance(cursor.total);
  result.validBytes = cursor.file;
  return result;
}

/** The fields of one record's text (csv-parse's sync parser: a record is small). */
export function parseRecord(text: string): string[] {
  return (parseWhole(text, { ...PARSE_OPTIONS, bom: false }) as string[][])[0] ?? [];
}

/** Reads CSV text (as scanCsvFile, without a file): errors are CsvSyntaxError. */
export function scanCsvText(text: string, visit: (row: CsvRow) => void, header?: CsvScanOptions['header']): CsvScan {
  let bytes: Buffer | null = Buffer.from(text, 'utf8');
  return scan(
    {
      encoding: 'utf-8',
      skipped: 0,
      next: () => {
        const piece = bytes;
        bytes = null;
        return piece;
      },
    },
    visit,
    header,
  );
}

/**
 * Reads a CSV file record by record, in chunks: `visit` sees each record after the header. Errors
 * are `FILE:LINE: message` (InputError): unreadable file, malformed record at the line where it
 * starts; a torn last record is dropped (see the top of csv.ts).
 */
export function scanCsvFile(path: string, visit: (row: CsvRow) => void, options: CsvScanOptions = {}): CsvScan {
  let fd: number;
  try {
    // Read by position, and some readers twice: a pipe or device cannot be (and opening a pipe may block for ever).
    const stats = statSync(path);
    if (!stats.isFile() && !stats.isDirectory()) throw new InputError(path, 0, 'cannot read the file (not a regular file: a run CSV is read in place)');
    fd = openSync(path, 'r');
    noteInputFile(fstatSync(fd));
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw cannotRead(path, err);
  }
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  try {
    try {
      return scan(fileSource(path, fd, null, chunkBytes), visit, options.header);
    } catch (err) {
      if (!(err instanceof NotUtf8)) throw err;
    }
    options.restart?.();
    return scan(fileSource(path, fd, 'windows-1252', chunkBytes), visit, options.header);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new InputError(path, err.line, `${options.context ?? ''}${err.message}`);
    throw err;
  } finally {
    closeSync(fd);
  }
}

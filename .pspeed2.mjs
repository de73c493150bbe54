import { Parser } from 'csv-parse';
import { openSync, readSync } from 'node:fs';
const variants = {
  base: { bom: true, relax_column_count: false, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'] },
  auto: { bom: true, relax_column_count: false, skip_empty_lines: true },
  lf: { record_delimiter: '\n' },
  none: {},
  maxrec: { bom: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'], max_record_size: 64<<20 },
};
const name = process.argv[2];
const p = new Parser(variants[name]);
const api = p.api;
const fd = openSync('/tmp/big/base.csv', 'r');
let pos = 0, n = 0, t = Date.now();
const limit = 100 << 20;
while (pos < limit) {
  const b = Buffer.allocUnsafe(4 << 20);
  const k = readSync(fd, b, 0, b.length, pos);
  if (k === 0) break;
  pos += k;
  const err = api.parse(b.subarray(0, k), false, (r) => { n++; }, () => {});
  if (err) throw err;
}
console.log(name, n, Date.now() - t, 'ms for', pos >> 20, 'MiB');

import { parse } from 'csv-parse/sync';
for (const s of ['a\r\nb\r\nc\r\n', 'a\nb\n"x\ny"\nc\n', 'a\n\n\nb\nc', '\ufeffa,b\r\n\r\n"x\r\ny",1\n\n"p\nq","r\rs"\r\n'])
  console.log(JSON.stringify(s), JSON.stringify(parse(s, { info: true, bom: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'] }).map((r) => [r.record, r.info.lines, r.info.bytes])));

import Table from 'cli-table3';
import { oneLineText } from '../../corpus/errors.js';

/** No borders: columns two spaces apart, a dashed rule under the header. */
const PLAIN = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '-',
  'mid-mid': '  ',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/**
 * A plain-text table: the first column left-aligned, the others right-aligned (they hold
 * numbers), widths measured as the terminal shows the text. Control characters in a cell are
 * escaped (oneLineText): cells often come from files, and a line break or terminal escape in one
 * would split a row or drive the terminal. A header may break over lines at `\n` (the caller's own
 * text); its other control characters are escaped too.
 */
export function formatTable(header: string[], body: string[][]): string {
  const table = new Table({
    head: header.map((h) => h.split('\n').map(oneLineText).join('\n')),
    chars: PLAIN,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    colAligns: header.map((_, i) => (i === 0 ? 'left' : 'right')),
  });
  // cli-table3 draws the rule only above a first row: an empty table gets a blank row, dropped after.
  table.push(...(body.length > 0 ? body.map((row) => row.map(oneLineText)) : [header.map(() => '')]));
  const lines = table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd());
  return (body.length > 0 ? lines : lines.slice(0, 2)).join('\n');
}

import Table from 'cli-table3';

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
 * numbers), widths measured as the terminal shows the text.
 */
export function formatTable(header: string[], body: string[][]): string {
  const table = new Table({
    head: header,
    chars: PLAIN,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    colAligns: header.map((_, i) => (i === 0 ? 'left' : 'right')),
  });
  // cli-table3 draws the rule only above a first row: an empty table gets a blank row, dropped after.
  table.push(...(body.length > 0 ? body : [header.map(() => '')]));
  const lines = table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd());
  return (body.length > 0 ? lines : lines.slice(0, 2)).join('\n');
}

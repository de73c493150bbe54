import { EMPTY, FILLED, puzzleLabel, type Grid, type Puzzle } from './model.js';

export interface TerminalOptions {
  /** ANSI colours; the CLI passes `process.stdout.isTTY`. */
  color?: boolean;
  /** Non-zero entries mark cells to highlight (same indexing as the grid). */
  mark?: Uint8Array;
  /** Draws the row clues on the left and the column clues on top. */
  clues?: Puzzle;
}

const ANSI_RESET = '\x1b[0m';
const ANSI_RED = '\x1b[31m';
const ANSI_DIM = '\x1b[2m';
const ANSI_GREY = '\x1b[90m';

/**
 * A full or partial grid drawn with Unicode blocks, each cell as wide as two characters so it
 * looks square (wider when a column clue number needs it): `██` filled, `··` empty, `░░` unknown.
 * Marked cells are red with colour on; without colour a marked filled cell is `▓▓` and any other
 * marked cell `××`. Rows end with a newline.
 */
export function renderTerminal(grid: Grid, width: number, options: TerminalOptions = {}): string {
  const { color = false, mark, clues } = options;
  const height = width > 0 ? Math.floor(grid.length / width) : 0;
  const columnClues = clues?.columns.slice(0, width) ?? [];
  const cellWidth = Math.max(2, ...columnClues.flat().map((n) => String(n).length));
  const rowClueText = (y: number) => (clues?.rows[y] ?? []).join(' ') || '0';
  const leftWidth = clues ? Math.max(...Array.from({ length: height }, (_, y) => rowClueText(y).length), 1) + 1 : 0;
  const paint = (code: string, text: string) => (color ? `${code}${text}${ANSI_RESET}` : text);

  const out: string[] = [];
  if (clues) {
    const depth = Math.max(1, ...columnClues.map((c) => c.length));
    for (let d = 0; d < depth; d++) {
      let line = ' '.repeat(leftWidth);
      for (let x = 0; x < width; x++) {
        const c = columnClues[x] ?? [];
        const shown = c.length === 0 ? ['0'] : c.map(String);
        const at = d - (depth - shown.length);
        line += (at >= 0 ? shown[at]! : '').padStart(cellWidth);
      }
      out.push(paint(ANSI_DIM, line.trimEnd()));
    }
  }
  for (let y = 0; y < height; y++) {
    let line = clues ? paint(ANSI_DIM, rowClueText(y).padStart(leftWidth - 1)) + ' ' : '';
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const v = grid[i];
      const marked = !!mark?.[i];
      let glyph: string;
      if (v === FILLED) glyph = marked && !color ? '▓' : '█';
      else if (marked && !color) glyph = '×';
      else glyph = v === EMPTY ? '·' : '░';
      const cell = glyph.repeat(cellWidth);
      if (marked) line += paint(ANSI_RED, cell);
      else if (v === FILLED) line += cell;
      else line += paint(v === EMPTY ? ANSI_DIM : ANSI_GREY, cell);
    }
    out.push(line);
  }
  return out.map((l) => `${l}\n`).join('');
}

export interface SvgOptions {
  /** Draws its clues along the top and the left, and uses its title. */
  puzzle?: Puzzle;
  /** Non-zero entries mark cells to outline in red. */
  mark?: Uint8Array;
  /** Side of a cell in SVG units (default 20). */
  cellSize?: number;
}

/** A coordinate with at most two decimals, so float noise stays out of the file. */
const num = (v: number): string => String(Math.round(v * 100) / 100);

/** Text made safe inside SVG/XML element content and attribute values. */
export function escapeXml(text: string): string {
  return dropNonXmlChars(text).replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

/**
 * `text` without the characters XML 1.0 forbids (C0 controls but tab, LF and CR; lone surrogates;
 * U+FFFE and U+FFFF), which no parser would read back.
 */
export const dropNonXmlChars = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/gu, '');

/**
 * A standalone SVG picture of a full or partial grid: filled cells black, empty white, unknown
 * grey with a dot; marked cells outlined red; a thicker rule every 5 cells. Each cell's rect has
 * a class (`filled`, `empty`, `unknown`) and each outline the class `mark`.
 */
export function renderSvg(grid: Grid, width: number, height: number, options: SvgOptions = {}): string {
  const { puzzle, mark } = options;
  const cell = options.cellSize ?? 20;
  const font = Math.round(cell * 0.6);
  const digitWidth = font * 0.62;
  const rowTexts = puzzle ? puzzle.rows.map((c) => c.join(' ') || '0') : [];
  const columnTexts = puzzle ? puzzle.columns.map((c) => (c.length ? c.map(String) : ['0'])) : [];
  const left = puzzle ? Math.ceil(Math.max(1, ...rowTexts.map((t) => t.length)) * digitWidth + cell * 0.6) : 0;
  const top = puzzle ? Math.max(1, ...columnTexts.map((c) => c.length)) * cell + Math.round(cell * 0.3) : 0;
  const pad = 2;
  const ox = left + pad;
  const oy = top + pad;
  const totalW = ox + width * cell + pad;
  const totalH = oy + height * cell + pad;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${totalW}" height="${totalH}" viewBox="0 0 ${totalW} ${totalH}">`,
  );
  if (puzzle) parts.push(`<title>${escapeXml(puzzleLabel(puzzle))}</title>`);
  parts.push(`<rect x="0" y="0" width="${totalW}" height="${totalH}" fill="#ffffff"/>`);

  if (puzzle) {
    parts.push(`<g font-family="sans-serif" font-size="${font}" fill="#333333">`);
    rowTexts.forEach((t, y) => {
      const ty = oy + y * cell + cell / 2;
      parts.push(`<text x="${num(ox - cell * 0.3)}" y="${num(ty)}" text-anchor="end" dominant-baseline="central">${escapeXml(t)}</text>`);
    });
    columnTexts.forEach((nums, x) => {
      const tx = ox + x * cell + cell / 2;
      nums.forEach((n, i) => {
        const ty = oy - cell * 0.3 - (nums.length - 1 - i) * cell - cell / 2;
        parts.push(`<text x="${num(tx)}" y="${num(ty)}" text-anchor="middle" dominant-baseline="central">${escapeXml(n)}</text>`);
      });
    });
    parts.push('</g>');
  }

  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = grid[y * width + x];
      const px = ox + x * cell;
      const py = oy + y * cell;
      if (v === FILLED) parts.push(`<rect class="filled" x="${px}" y="${py}" width="${cell}" height="${cell}" fill="#000000"/>`);
      else if (v === EMPTY) parts.push(`<rect class="empty" x="${px}" y="${py}" width="${cell}" height="${cell}" fill="#ffffff"/>`);
      else {
        parts.push(`<rect class="unknown" x="${px}" y="${py}" width="${cell}" height="${cell}" fill="#c8c8c8"/>`);
        parts.push(`<circle cx="${num(px + cell / 2)}" cy="${num(py + cell / 2)}" r="${num(cell * 0.1)}" fill="#777777"/>`);
      }
    }
  }

  // Grid rules: thin between cells, thick every 5 cells and around the border.
  parts.push('<g stroke="#888888" stroke-linecap="square">');
  for (let x = 0; x <= width; x++) {
    const thick = x % 5 === 0 || x === width;
    parts.push(
      `<line x1="${ox + x * cell}" y1="${oy}" x2="${ox + x * cell}" y2="${oy + height * cell}" stroke-width="${thick ? 2 : 0.5}"${thick ? ' stroke="#000000"' : ''}/>`,
    );
  }
  for (let y = 0; y <= height; y++) {
    const thick = y % 5 === 0 || y === height;
    parts.push(
      `<line x1="${ox}" y1="${oy + y * cell}" x2="${ox + width * cell}" y2="${oy + y * cell}" stroke-width="${thick ? 2 : 0.5}"${thick ? ' stroke="#000000"' : ''}/>`,
    );
  }
  parts.push('</g>');

  if (mark) {
    const inset = Math.max(1.5, cell * 0.1);
    for (let i = 0; i < width * height; i++) {
      if (!mark[i]) continue;
      const px = ox + (i % width) * cell + inset;
      const py = oy + Math.floor(i / width) * cell + inset;
      const side = cell - 2 * inset;
      parts.push(
        `<rect class="mark" x="${num(px)}" y="${num(py)}" width="${num(side)}" height="${num(side)}" fill="none" stroke="#e00000" stroke-width="${num(inset)}"/>`,
      );
    }
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

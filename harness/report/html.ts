import { createHash } from 'node:crypto';

/** Small HTML builders for the report; every text goes through escapeHtml. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A table; `numeric` marks the columns to right-align. */
export function htmlTable(header: string[], body: string[][], numeric: (i: number) => boolean = (i) => i > 0): string {
  const cell = (tag: 'th' | 'td', text: string, i: number) => `<${tag}${numeric(i) ? ' class="num"' : ''}>${escapeHtml(text)}</${tag}>`;
  const head = `<thead><tr>${header.map((h, i) => cell('th', h, i)).join('')}</tr></thead>`;
  const rows = body.map((row) => `<tr>${row.map((c, i) => cell('td', c, i)).join('')}</tr>`).join('\n');
  return `<table>${head}<tbody>\n${rows}\n</tbody></table>`;
}

/**
 * A table under a header of two rows: `groups` spans (label, number of columns) over `header`; the
 * first `lead` columns have no group. `numeric` marks the columns to right-align.
 */
export function htmlGroupedTable(lead: number, groups: [string, number][], header: string[], body: string[][], numeric: (i: number) => boolean = (i) => i >= lead): string {
  const top = `<tr><th colspan="${lead}"></th>${groups.map(([g, span]) => `<th colspan="${span}" class="group">${escapeHtml(g)}</th>`).join('')}</tr>`;
  const table = htmlTable(header, body, numeric);
  return table.replace('<thead>', `<thead>${top}`);
}

/** A wide table in a box that scrolls sideways instead of widening the page. */
export const scrolling = (table: string) => `<div class="wide">${table}</div>`;

export const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

/** A definition list of label → value. */
export function htmlFacts(facts: [string, string][]): string {
  return `<dl>${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

/** What a page adds to the skeleton: its own styles, and one inline script (a replay's player). */
export interface PageExtras {
  css?: string;
  script?: string;
}

/**
 * A whole self-contained page: nothing may be fetched, so it looks the same offline. The policy
 * lets nothing load; a page's one script runs because its hash is named, and no other would.
 */
export function htmlPage(title: string, sections: readonly string[], extras: PageExtras = {}): string {
  const { css = '', script } = extras;
  const scriptSrc = script === undefined ? '' : `; script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'${scriptSrc}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}${css}</style>`,
    '</head>',
    '<body>',
    ...sections,
    ...(script === undefined ? [] : [`<script>${script}</script>`]),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export const REPORT_CSS = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.15em 1.2em; }
dt { font-weight: 600; }
dd { margin: 0; font-family: ui-monospace, monospace; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #eee; text-align: left; }
th { background: #f6f6f6; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
th.group { text-align: center; border-left: 2px solid #fff; }
.wide { overflow-x: auto; max-width: 100%; }
figure { margin: 1em 0; }
.panels { display: flex; flex-wrap: wrap; gap: 1em; }
figcaption { color: #555; font-size: 0.9em; max-width: 700px; }
`;

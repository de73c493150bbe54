import { puzzleLabel, type Puzzle } from '../../corpus/model.js';
import type { SolveResult } from '../../solvers/api/types.js';
import { escapeHtml, htmlFacts, htmlPage, paragraph } from '../report/html.js';
import { PLAYER_SCRIPT } from './player.js';
import type { RecordedSteps } from './recorder.js';

/** What the page shows besides the steps. */
export interface ReplayInput {
  puzzle: Puzzle;
  strategy: string;
  result: SolveResult;
  steps: RecordedSteps;
  /** The recorder's cap on steps, stated on the page when it left steps out. */
  maxSteps: number;
}

/** The id of the block that holds the steps (the player reads it; tests do too). */
export const REPLAY_DATA_ID = 'replay-data';

const base64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

/**
 * The page's data: the clues, and the steps as base64 typed arrays (little-endian, as every
 * browser's typed arrays are); cells take two bytes when the grid has at most 65 536 of them.
 */
function replayData(input: ReplayInput): Record<string, unknown> {
  const { puzzle, steps, result } = input;
  const narrow = puzzle.width * puzzle.height <= 65_536;
  return {
    title: puzzleLabel(puzzle),
    strategy: input.strategy,
    status: result.status,
    width: puzzle.width,
    height: puzzle.height,
    rows: puzzle.rows,
    columns: puzzle.columns,
    maxSteps: input.maxSteps,
    omitted: steps.omitted,
    cellBytes: narrow ? 2 : 4,
    kind: base64(steps.kind),
    arg: base64(steps.arg),
    depth: base64(steps.depth),
    info: base64(steps.info),
    end: base64(steps.end),
    cells: base64(narrow ? Uint16Array.from(steps.cells) : steps.cells),
    codes: base64(steps.codes),
  };
}

/** JSON that cannot end its script block early, whatever a title holds. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const CONTROLS = `<div class="controls">
<button id="first" title="first step (Home)">&#xAB; first</button>
<button id="back" title="step back (←, Shift+← 10)">&#x25C0; back</button>
<button id="play" title="play / pause (space)">&#x25B6; play</button>
<button id="forward" title="step forward (→, Shift+→ 10)">forward &#x25B6;</button>
<button id="last" title="last step (End)">last &#xBB;</button>
<label>speed <select id="speed" title="steps per second (+ / −)">
${[1, 2, 5, 10, 20, 50, 100, 250, 1000].map((n) => `<option value="${n}"${n === 10 ? ' selected' : ''}>${n}/s</option>`).join('')}
</select></label>
<span id="counter"></span>
</div>
<input id="slider" type="range" min="0" value="0" aria-label="step">
<p id="description" aria-live="polite"></p>`;

const swatch = (style: string) => `<span class="swatch" style="${style}"></span>`;
const cross = (colour: string) => `background:#fff;border-color:${colour};color:${colour}`;

const LEGEND = `<ul class="legend">
<li>${swatch('background:#1b1b1b')}${swatch(cross('#1b1b1b'))}line logic (filled, empty)</li>
<li>${swatch('background:#0072B2')}${swatch(cross('#0072B2'))}probing</li>
<li>${swatch('background:#D55E00')}${swatch(cross('#D55E00'))}guess</li>
<li>${swatch('background:#009E73')}${swatch(cross('#009E73'))}clause learning (auto)</li>
<li>${swatch('background:#8d8d8d')}${swatch('background:#80b9d8')}decided below a guess (undone when the guess fails)</li>
<li>${swatch('background:#e6e6e6')}unknown</li>
<li>${swatch('background:#fff;border:2px solid #E69F00')}set by this step; the current line or cell is framed in ${swatch('background:#fff;border:2px solid #CC79A7')}</li>
</ul>`;

const CSS = `
.controls { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; margin: 0.5em 0; }
.controls button { font: inherit; padding: 0.2em 0.7em; }
#counter { font-variant-numeric: tabular-nums; margin-left: 0.5em; }
#slider { width: 100%; max-width: 800px; }
#description { font-family: ui-monospace, monospace; min-height: 1.5em; }
.legend { list-style: none; padding: 0; columns: 2; max-width: 800px; font-size: 0.9em; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid #999; margin-right: 0.25em; vertical-align: -0.1em; }
`;

/** The whole replay page: facts, the board, the controls and the legend, the steps, the player. */
export function replayPage(input: ReplayInput): string {
  const { puzzle, steps, result } = input;
  const title = `Replay: ${puzzleLabel(puzzle)}`;
  const recorded = steps.kind.length;
  const facts: [string, string][] = [
    ['puzzle', `${puzzle.meta.source ?? puzzle.id} (${puzzle.width}×${puzzle.height})`],
    ['strategy', input.strategy],
    ['status', result.status],
    ['steps', String(recorded)],
    ['line solves, decisions, dead ends, max depth', [result.metrics.lineSolves, result.metrics.decisions, result.metrics.deadEnds, result.metrics.maxDepth].join(', ')],
  ];
  const sections = [
    `<h1>${escapeHtml(title)}</h1>`,
    htmlFacts(facts),
  ];
  if (steps.omitted > 0)
    sections.push(
      paragraph(
        `This search is long: the first ${input.maxSteps} steps are recorded, the ${steps.omitted} after them are left out, and the last step sets the final grid.`,
      ),
    );
  sections.push(
    CONTROLS,
    '<canvas id="board"></canvas>',
    LEGEND,
    paragraph('Keys: space plays or pauses, ← and → step (with Shift, 10 steps), Home and End go to the ends, + and − change the speed.'),
    `<script type="application/json" id="${REPLAY_DATA_ID}">${scriptJson(replayData(input))}</script>`,
  );
  return htmlPage(title, sections, { css: CSS, script: PLAYER_SCRIPT });
}

/**
 * The replay page's player, inlined as it is (no build step, no network). It reads the steps from
 * the page's `replay-data` block, keeps the grid as it stands after `pos` steps, and moves it
 * forward by a step's cells and codes, or back by the codes they had before (worked out once at
 * load). The step kinds, code bits and colours match recorder.ts and page.ts. URL parameters:
 * `?autoplay`, `?step=N`, `?speed=N` (steps per second).
 */
export const PLAYER_SCRIPT = String.raw`(() => {
'use strict';
const data = JSON.parse(document.getElementById('replay-data').textContent);
const bytes = (b64) => { const s = atob(b64); const a = new Uint8Array(s.length); for (let i = 0; i < s.length; i++) a[i] = s.charCodeAt(i); return a; };
const typed = (b64, T) => { const b = bytes(b64); return new T(b.buffer, 0, b.length / T.BYTES_PER_ELEMENT); };
const kind = bytes(data.kind), info = bytes(data.info), codes = bytes(data.codes);
const arg = typed(data.arg, Int32Array), depth = typed(data.depth, Uint16Array), end = typed(data.end, Uint32Array);
const cells = typed(data.cells, data.cellBytes === 2 ? Uint16Array : Uint32Array);
const W = data.width, H = data.height, N = kind.length;
const startOf = (s) => (s === 0 ? 0 : end[s - 1]);

// The code each cell had before each step set it, for stepping back.
const before = new Uint8Array(codes.length);
{ const g = new Uint8Array(W * H); for (let k = 0; k < codes.length; k++) { before[k] = g[cells[k]]; g[cells[k]] = codes[k]; } }

const grid = new Uint8Array(W * H);
let pos = 0;
const forward = () => { for (let k = startOf(pos); k < end[pos]; k++) grid[cells[k]] = codes[k]; pos++; };
const back = () => { pos--; for (let k = end[pos] - 1; k >= startOf(pos); k--) grid[cells[k]] = before[k]; };

// Words for a step.
const plural = (n, w) => n + ' ' + w + (n === 1 ? '' : 's');
const lineName = (l) => (l < H ? 'row ' + (l + 1) : 'column ' + (l - H + 1));
const cellName = (c) => '(r' + (Math.floor(c / W) + 1) + ',c' + ((c % W) + 1) + ')';
const valueName = (code) => ((code & 3) === 1 ? 'filled' : 'empty');
function describe(s) {
  const a = arg[s], d = depth[s], i = info[s], m = end[s] - startOf(s);
  const at = d > 0 ? ', depth ' + d : '';
  switch (kind[s]) {
    case 0: return i & 1 ? lineName(a) + ': ' + plural(m, 'cell') + at : lineName(a) + ': no placement fits, contradiction' + at;
    case 1:
      if (!(i & 3)) return 'probe ' + cellName(a) + ': both values contradict, dead end' + at;
      if (!(i & 1)) return 'probe ' + cellName(a) + ': filled \u2192 contradiction, so empty' + at;
      if (!(i & 2)) return 'probe ' + cellName(a) + ': empty \u2192 contradiction, so filled' + at;
      return 'probe ' + cellName(a) + ': both values agree on ' + plural(m, 'cell') + at;
    case 2: return plural(a, 'probe') + ' decided nothing' + at;
    case 3: return 'guess ' + cellName(a) + ' = ' + valueName(codes[startOf(s)]) + ', depth ' + d;
    case 4: return (i & 1 ? 'dead end' : 'branch done') + ', back to depth ' + d + ' (' + plural(m, 'cell') + ' undone)';
    case 5: return 'solution found' + at;
    case 6: {
      // The final grid may know fewer cells than the steps left (a cap, or auto's timeout reporting the grid probing
      // reached): those go back to unknown, and are said so, not counted as set.
      let cleared = 0;
      for (let k = startOf(s); k < end[s]; k++) if ((codes[k] & 3) === 0) cleared++;
      const changes = [m > cleared ? plural(m - cleared, 'cell') + ' set' : '', cleared > 0 ? plural(cleared, 'cell') + ' back to unknown' : ''].filter(Boolean);
      return (a > 0 ? plural(a, 'step') + ' left out (at most ' + data.maxSteps + ' are recorded); ' : '') +
        'final grid: ' + data.status + (changes.length > 0 ? ' (' + changes.join(', ') + ')' : '');
    }
    case 7: return 'clause learning fixed ' + plural(m, 'cell') + at;
    case 8: return 'clause learning found solution ' + a + at;
  }
  return '';
}

// Drawing.
const canvas = document.getElementById('board');
const ctx = canvas.getContext('2d');
const clueRows = Math.max(1, ...data.columns.map((c) => c.length));
const clueCols = Math.max(1, ...data.rows.map((c) => c.length));
const size = Math.max(8, Math.min(24, Math.floor(760 / (W + clueCols * 0.9)), Math.floor(760 / (H + clueRows * 0.9))));
const clueW = Math.ceil(clueCols * size * 0.9) + 4, clueH = Math.ceil(clueRows * size * 0.9) + 4;
const cssW = clueW + W * size + 2, cssH = clueH + H * size + 2;
const ratio = window.devicePixelRatio || 1;
canvas.width = cssW * ratio; canvas.height = cssH * ratio;
canvas.style.width = cssW + 'px'; canvas.style.height = cssH + 'px';
ctx.scale(ratio, ratio);
const COLOUR = ['#1b1b1b', '#0072B2', '#D55E00', '#009E73'];
const FAINT = ['#8d8d8d', '#80b9d8', '#D55E00', '#80cfb9'];
function drawCell(c, code, x, y) {
  const v = code & 3, by = (code >> 2) & 3, colour = (code & 16 ? FAINT : COLOUR)[by];
  if (v === 0) { ctx.fillStyle = '#e6e6e6'; ctx.fillRect(x, y, size, size); return; }
  if (v === 1) { ctx.fillStyle = colour; ctx.fillRect(x, y, size, size); return; }
  ctx.fillStyle = '#fff'; ctx.fillRect(x, y, size, size);
  ctx.strokeStyle = colour; ctx.lineWidth = Math.max(1, size / 10);
  const p = size * 0.3;
  ctx.beginPath(); ctx.moveTo(x + p, y + p); ctx.lineTo(x + size - p, y + size - p);
  ctx.moveTo(x + size - p, y + p); ctx.lineTo(x + p, y + size - p); ctx.stroke();
}
function draw() {
  const s = pos - 1, k = s >= 0 ? kind[s] : -1;
  const line = k === 0 ? arg[s] : -1;
  const cell = k === 1 || k === 3 ? arg[s] : -1;
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, cssW, cssH);
  if (line >= 0) {
    ctx.fillStyle = '#fff3b0';
    if (line < H) ctx.fillRect(0, clueH + line * size, clueW, size);
    else ctx.fillRect(clueW + (line - H) * size, 0, size, clueH);
  }
  ctx.textBaseline = 'middle'; ctx.textAlign = 'center';
  const font = Math.max(7, Math.floor(size * 0.62));
  data.rows.forEach((clue, y) => clue.forEach((n, i) => {
    ctx.font = (y === line ? 'bold ' : '') + font + 'px sans-serif'; ctx.fillStyle = '#222';
    ctx.fillText(String(n), clueW - (clue.length - i - 0.5) * size * 0.9 - 2, clueH + (y + 0.5) * size);
  }));
  data.columns.forEach((clue, x) => clue.forEach((n, i) => {
    ctx.font = (x + H === line ? 'bold ' : '') + font + 'px sans-serif'; ctx.fillStyle = '#222';
    ctx.fillText(String(n), clueW + (x + 0.5) * size, clueH - (clue.length - i - 0.5) * size * 0.9 - 2);
  }));
  for (let c = 0; c < W * H; c++) drawCell(c, grid[c], clueW + (c % W) * size, clueH + Math.floor(c / W) * size);
  ctx.lineWidth = 1;
  for (let x = 0; x <= W; x++) { ctx.strokeStyle = x % 5 === 0 || x === W ? '#555' : '#c8c8c8'; ctx.beginPath(); ctx.moveTo(clueW + x * size + 0.5, clueH); ctx.lineTo(clueW + x * size + 0.5, clueH + H * size); ctx.stroke(); }
  for (let y = 0; y <= H; y++) { ctx.strokeStyle = y % 5 === 0 || y === H ? '#555' : '#c8c8c8'; ctx.beginPath(); ctx.moveTo(clueW, clueH + y * size + 0.5); ctx.lineTo(clueW + W * size, clueH + y * size + 0.5); ctx.stroke(); }
  // What the last step changed, outlined; its line or cell framed.
  if (s >= 0) {
    ctx.strokeStyle = '#E69F00'; ctx.lineWidth = 2;
    for (let j = startOf(s); j < end[s]; j++) { const c = cells[j]; ctx.strokeRect(clueW + (c % W) * size + 2, clueH + Math.floor(c / W) * size + 2, size - 4, size - 4); }
  }
  ctx.strokeStyle = '#CC79A7'; ctx.lineWidth = 3;
  if (line >= 0 && line < H) ctx.strokeRect(clueW - 1, clueH + line * size - 1, W * size + 2, size + 2);
  else if (line >= H) ctx.strokeRect(clueW + (line - H) * size - 1, clueH - 1, size + 2, H * size + 2);
  if (cell >= 0) ctx.strokeRect(clueW + (cell % W) * size - 1, clueH + Math.floor(cell / W) * size - 1, size + 2, size + 2);
  slider.value = String(pos);
  counter.textContent = 'step ' + pos + ' / ' + N;
  description.textContent = s >= 0 ? describe(s) : 'start: no cell decided yet';
}

// Controls.
const $ = (id) => document.getElementById(id);
const slider = $('slider'), counter = $('counter'), description = $('description'), playButton = $('play'), speedBox = $('speed');
slider.max = String(N);
let timer = 0, last = 0, owed = 0;
const speed = () => Number(speedBox.value);
function seek(target) {
  target = Math.max(0, Math.min(N, target));
  while (pos < target) forward();
  while (pos > target) back();
  draw();
}
function tick() {
  const now = performance.now();
  owed += ((now - last) / 1000) * speed(); last = now;
  const n = Math.floor(owed); owed -= n;
  if (n > 0) seek(pos + n);
  if (pos >= N) pause(); else timer = setTimeout(tick, Math.max(16, 1000 / speed()));
}
function play() { if (timer) return; if (pos >= N) seek(0); last = performance.now(); owed = 1; playButton.textContent = '\u2016 pause'; tick(); }
function pause() { clearTimeout(timer); timer = 0; playButton.textContent = '\u25B6 play'; }
const toggle = () => (timer ? pause() : play());
playButton.addEventListener('click', toggle);
$('first').addEventListener('click', () => { pause(); seek(0); });
$('back').addEventListener('click', () => { pause(); seek(pos - 1); });
$('forward').addEventListener('click', () => { pause(); seek(pos + 1); });
$('last').addEventListener('click', () => { pause(); seek(N); });
slider.addEventListener('input', () => { pause(); seek(Number(slider.value)); });
function nudgeSpeed(dir) { const i = speedBox.selectedIndex + dir; if (i >= 0 && i < speedBox.options.length) speedBox.selectedIndex = i; }
document.addEventListener('keydown', (e) => {
  if (e.target === speedBox || e.ctrlKey || e.metaKey || e.altKey) return;
  const jump = e.shiftKey ? 10 : 1;
  if (e.key === ' ') toggle();
  else if (e.key === 'ArrowRight') { pause(); seek(pos + jump); }
  else if (e.key === 'ArrowLeft') { pause(); seek(pos - jump); }
  else if (e.key === 'Home') { pause(); seek(0); }
  else if (e.key === 'End') { pause(); seek(N); }
  else if (e.key === '+' || e.key === '=') nudgeSpeed(1);
  else if (e.key === '-') nudgeSpeed(-1);
  else return;
  e.preventDefault();
});

const params = new URLSearchParams(location.search);
// Any speed from 1 to 1000 (3, 10.0, 5000): the nearest the menu offers, on a log scale as the menu is.
if (params.has('speed')) {
  const wanted = Number(params.get('speed'));
  if (wanted > 0 && Number.isFinite(wanted)) {
    let best = speedBox.options[0].value;
    for (const o of speedBox.options) if (Math.abs(Math.log(Number(o.value) / wanted)) < Math.abs(Math.log(Number(best) / wanted))) best = o.value;
    speedBox.value = best;
  }
}
seek(params.has('step') ? Number(params.get('step')) || 0 : 0);
if (params.has('autoplay')) play();
})();
`;

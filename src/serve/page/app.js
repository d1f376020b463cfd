// tempo's board in the browser. The server keeps no game: this page holds
// it (variant, start position, moves, the move shown) and asks the server
// for the rules' view of it, the engine's moves and its analysis.
'use strict';

const $ = (id) => document.getElementById(id);

const game = {
  variant: 'international',
  start: '',      // FEN of the start position ('' = the variant's own)
  moves: [],      // every move of the game, Hub notation
  ply: 0,         // how many of them the board shows
};
let view = null;            // the server's state of the position shown
let flipped = false;
let selected = null;        // the square of the piece picked
let narrowed = null;        // the moves still meant after captured squares were clicked
let editing = null;         // the position being set up: { pieces: {n: piece}, side }
let request = 0;            // bumped when the game changes: stale answers are dropped
let thinking = false;
let analysing = false;      // whether the engine analyses every position shown
let analysis = null;        // the EventSource of the running analysis
let analysisLines = [];
let review = null;          // the EventSource of the running review
let playing = null;         // the AbortController of the engine's move asked for

// This page's id: every search it starts is its own, and the server
// stops one when the page starts another of the same kind, cancels it or
// goes away. Random, and no secure context needed (unlike randomUUID).
const client = Array.from(crypto.getRandomValues(new Uint8Array(12)),
  (b) => b.toString(16).padStart(2, '0')).join('');

function params(extra) {
  const p = new URLSearchParams({ client, variant: game.variant, moves: game.moves.slice(0, game.ply).join(' ') });
  if (game.start) p.set('fen', game.start);
  for (const [k, v] of Object.entries(extra || {})) p.set(k, v);
  return p;
}

async function api(path, query, options) {
  const reply = await fetch(path + '?' + query, options);
  const type = reply.headers.get('Content-Type') || '';
  const body = type.startsWith('application/json') ? await reply.json() : await reply.text();
  if (!reply.ok) throw new Error(body.error || body || reply.statusText);
  return body;
}

// Stops this page's searches for `purpose` (all of them when absent); a
// page closing asks too, by beacon, which outlives it.
function cancelSearches(purpose) {
  const p = new URLSearchParams({ client });
  if (purpose) p.set('purpose', purpose);
  fetch('/api/cancel?' + p, { method: 'POST', keepalive: true }).catch(() => {});
}

// The engine's move asked for, if any, is no longer wanted: the request
// dropped stops its search (and the page's next one would replace it).
function stopThinking() {
  thinking = false;
  if (playing) playing.abort();
  playing = null;
}

function say(text, error) {
  $('status').textContent = text;
  $('status').classList.toggle('error', !!error);
}

// The state of the position shown, then whatever follows from it: the
// board, the move list, the engine's turn, a running analysis.
async function refresh() {
  const mine = ++request;
  closeAnalysis();
  let state;
  try {
    state = await api('/api/state', params());
  } catch (e) {
    if (mine === request) say(e.message, true);
    return;
  }
  if (mine !== request) return;
  view = state;
  selected = null;
  narrowed = null;
  $('fen').value = state.fen;
  render();
  describe();
  if (analysing) startAnalysis();
  engineTurn();
}

function describe() {
  if (thinking) return;
  if (view.result !== '*') {
    say(`${view.result}: ${view.reason}`);
  } else if (game.ply < game.moves.length) {
    say(`move ${game.ply} of ${game.moves.length} shown: ${view.side} to move`);
  } else {
    say(`${view.side === 'white' ? 'White' : 'Black'} to move`);
  }
}

function render() {
  const board = $('board');
  const size = view.size;
  board.style.gridTemplateColumns = `repeat(${size}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${size}, 1fr)`;
  board.textContent = '';
  const last = game.ply > 0 ? view.history[game.ply - 1] : null;
  const lastSquares = last ? squaresOf(last.hub) : [];
  const targets = new Set();
  const choices = new Set();
  if (selected !== null) {
    for (const m of candidates()) targets.add(m.to);
    const pending = narrowed || [];
    if (pending.length > 1) {
      for (const m of pending) for (const c of m.captured) choices.add(c);
    }
  }
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const cell = document.createElement('div');
      cell.className = 'cell';
      cell.style.gridRow = String((flipped ? size - 1 - row : row) + 1);
      cell.style.gridColumn = String((flipped ? size - 1 - col : col) + 1);
      board.appendChild(cell);
      cell.dataset.row = row;
      cell.dataset.col = col;
    }
  }
  for (const sq of view.squares) {
    const cell = board.children[sq.row * size + sq.col];
    cell.classList.add('dark');
    cell.dataset.square = sq.n;
    const number = document.createElement('span');
    number.className = 'n';
    number.textContent = sq.n;
    cell.appendChild(number);
    const piece = editing ? editing.pieces[sq.n] : sq.piece;
    if (piece) {
      const p = document.createElement('div');
      p.className = 'piece ' + (piece.toLowerCase() === 'w' ? 'white' : 'black') + (piece === 'W' || piece === 'B' ? ' king' : '');
      cell.appendChild(p);
    }
    if (!editing) {
      if (lastSquares.includes(sq.n)) cell.classList.add('last');
      if (sq.n === selected) cell.classList.add('selected');
      if (targets.has(sq.n)) cell.classList.add('target');
      if (choices.has(sq.n)) cell.classList.add('choice');
    }
  }
  renderMoves();
}

function squaresOf(hub) {
  const parts = hub.split(/[-x]/).map(Number);
  return parts.slice(0, 2);
}

function renderMoves() {
  const list = $('moves');
  list.textContent = '';
  view.history.forEach((m, i) => {
    const li = document.createElement('li');
    const first = m.side === view.first;
    const number = Math.floor(i / 2) + 1;
    if (first || i === 0) {
      const n = document.createElement('span');
      n.className = 'num';
      n.textContent = first ? `${number}.` : `${number}...`;
      li.appendChild(n);
    }
    const text = document.createElement('span');
    text.className = 'mv';
    text.textContent = m.text;
    li.appendChild(text);
    li.dataset.ply = i + 1;
    if (i + 1 === game.ply) li.classList.add('current');
    li.addEventListener('click', () => { game.ply = i + 1; refresh(); });
    list.appendChild(li);
  });
  // The moves after the one shown are kept: they are listed as well.
  for (let i = view.history.length; i < game.moves.length; i++) {
    const li = document.createElement('li');
    const text = document.createElement('span');
    text.className = 'mv';
    text.textContent = game.moves[i];
    li.appendChild(text);
    li.dataset.ply = i + 1;
    li.addEventListener('click', () => { game.ply = i + 1; refresh(); });
    list.appendChild(li);
  }
}

// The legal moves the picked piece can still make.
function candidates() {
  const pool = narrowed || view.legal;
  return pool.filter((m) => m.from === selected);
}

function playerMayMove() {
  return !editing && !thinking && view && view.result === '*' &&
    (game.ply < game.moves.length || $('engine-side').value !== view.side);
}

function clickSquare(n) {
  if (editing) {
    const put = $('edit-piece').value;
    if (put && editing.pieces[n] !== put) editing.pieces[n] = put;
    else delete editing.pieces[n];
    render();
    return;
  }
  if (!playerMayMove()) return;
  if (selected !== null) {
    const mine = candidates();
    // A captured square clicked: keep the moves that take there.
    const taking = mine.filter((m) => m.captured.includes(n));
    if (taking.length > 0 && taking.length < mine.length) {
      narrowed = taking;
      if (taking.length === 1) return play(taking[0]);
      render();
      return;
    }
    const ending = mine.filter((m) => m.to === n);
    if (ending.length === 1) return play(ending[0]);
    if (ending.length > 1) {
      narrowed = ending;
      say('Several captures end there: click a piece to take to choose.');
      render();
      return;
    }
  }
  if (view.legal.some((m) => m.from === n) && n !== selected) {
    selected = n;
  } else {
    selected = null;
  }
  narrowed = null;
  describe();
  render();
}

function play(move) {
  game.moves = game.moves.slice(0, game.ply);
  game.moves.push(move.hub);
  game.ply = game.moves.length;
  refresh();
}

async function engineTurn() {
  const side = $('engine-side').value;
  if (editing || thinking || view.result !== '*' || game.ply < game.moves.length || view.side !== side) return;
  thinking = true;
  const mine = request;
  const asked = new AbortController();
  playing = asked;
  say(`tempo (${side}) is thinking…`);
  try {
    const reply = await api('/api/play', params({ level: $('level').value, movetime: $('movetime').value }), { signal: asked.signal });
    if (playing === asked) playing = null;
    thinking = false;
    if (mine !== request) return;
    play(reply.move);
  } catch (e) {
    if (playing === asked) playing = null;
    if (asked.signal.aborted) return;
    thinking = false;
    if (mine === request) say(`the engine could not move: ${e.message}`, true);
  }
}

function takeBack() {
  if (game.moves.length === 0) return;
  request++;
  stopThinking();
  game.moves = game.moves.slice(0, game.ply);
  const history = view ? view.history : [];
  let n = 1;
  const engine = $('engine-side').value;
  if (engine !== 'none' && history.length >= 2 && history[history.length - 1].side === engine) n = 2;
  game.moves = game.moves.slice(0, Math.max(0, game.moves.length - n));
  game.ply = game.moves.length;
  refresh();
}

function newGame(start) {
  request++;
  stopThinking();
  game.start = start || '';
  game.moves = [];
  game.ply = 0;
  $('report').textContent = '';
  refresh();
}

// Analysis: a stream of lines while the page keeps it open.
// Closing the stream stops the search (the server sees the page go).
function closeAnalysis() {
  if (analysis) analysis.close();
  analysis = null;
}

function startAnalysis() {
  closeAnalysis();
  analysing = true;
  analysisLines = [];
  $('analysis').textContent = '';
  $('analyse').classList.add('on');
  $('analyse').textContent = 'Stop';
  if (view.result !== '*') {
    $('analysis-state').textContent = 'the game is over';
    return;
  }
  const source = new EventSource('/api/analyse?' + params({ lines: $('lines').value }));
  analysis = source;
  $('analysis-state').textContent = 'searching…';
  source.addEventListener('line', (e) => {
    const line = JSON.parse(e.data);
    analysisLines[line.line - 1] = line;
    showLines();
  });
  source.addEventListener('done', () => {
    source.close();
    $('analysis-state').textContent = 'done';
  });
  source.addEventListener('stopped', (e) => {
    source.close();
    if (analysis === source) $('analysis-state').textContent = `stopped: ${JSON.parse(e.data).reason}`;
  });
  // A refusal (too many searches) or a server gone: no retrying.
  source.onerror = () => {
    source.close();
    if (analysis === source) $('analysis-state').textContent = 'stopped: the server refused or went away';
  };
}

function showLines() {
  const out = $('analysis');
  out.textContent = '';
  for (const line of analysisLines) {
    if (!line) continue;
    const li = document.createElement('li');
    for (const [kind, text] of [['depth', `depth ${line.depth}`], ['score', line.score.text], ['pv', line.pv.join(' ')]]) {
      const part = document.createElement('span');
      part.className = kind;
      part.textContent = text;
      li.appendChild(part);
    }
    out.appendChild(li);
  }
  const best = analysisLines[0];
  if (best) {
    const men = Math.max(-5, Math.min(5, best.score.white));
    $('evalfill').style.height = `${50 + men * 10}%`;
    $('analysis-state').textContent = `depth ${best.depth}, ${best.mnps} M nodes/s`;
  }
}

function toggleAnalysis() {
  if (!analysing) return startAnalysis();
  closeAnalysis();
  cancelSearches('analyse');
  analysing = false;
  $('analyse').classList.remove('on');
  $('analyse').textContent = 'Analyse';
  $('analysis-state').textContent = 'stopped';
}

// Setting up a position.
function startEditing() {
  editing = { pieces: {}, side: view.side };
  for (const sq of view.squares) if (sq.piece) editing.pieces[sq.n] = sq.piece;
  $('edit-side').value = view.side;
  $('editor').hidden = false;
  say('Click the squares to set up the position, then Done.');
  render();
}

function editorFen() {
  const list = (colour) => Object.entries(editing.pieces)
    .filter(([, p]) => p.toLowerCase() === colour)
    .map(([n, p]) => (p === p.toUpperCase() ? 'K' : '') + n)
    .join(',');
  return `${$('edit-side').value === 'white' ? 'W' : 'B'}:W${list('w')}:B${list('b')}`;
}

function doneEditing() {
  const fen = editorFen();
  editing = null;
  $('editor').hidden = true;
  newGame(fen);
}

// PDN in and out.
let pdnGames = [];

async function loadPdn(text) {
  try {
    const reply = await api('/api/pdn', new URLSearchParams({ variant: game.variant }), { method: 'POST', body: text });
    pdnGames = reply.games;
    const select = $('pdn-games');
    select.textContent = '';
    pdnGames.forEach((g, i) => {
      const option = document.createElement('option');
      option.value = i;
      option.textContent = `${i + 1}. ${g.white} – ${g.black} ${g.result}`;
      select.appendChild(option);
    });
    select.hidden = pdnGames.length < 2;
    if (pdnGames.length === 0) throw new Error(reply.errors.join('; '));
    openGame(0);
    if (reply.errors.length > 0) say(`${reply.errors.length} game(s) could not be read: ${reply.errors[0]}`, true);
  } catch (e) {
    say(`cannot read the PDN: ${e.message}`, true);
  }
}

function openGame(i) {
  const g = pdnGames[i];
  $('engine-side').value = 'none';
  game.variant = g.variant;
  $('variant').value = g.variant;
  request++;
  stopThinking();
  game.start = g.start;
  game.moves = g.moves.slice();
  game.ply = 0;
  refresh();
}

function savePdn() {
  const link = document.createElement('a');
  link.href = '/api/pdn?' + params({ moves: game.moves.join(' ') });
  link.download = 'game.pdn';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

function toggleReview() {
  if (review) {
    review.close();
    review = null;
    cancelSearches('review');
    $('review').textContent = 'Review the game';
    $('review-state').textContent = 'stopped';
    return;
  }
  const p = new URLSearchParams({ client, variant: game.variant, moves: game.moves.join(' ') });
  if (game.start) p.set('fen', game.start);
  const source = new EventSource('/api/review?' + p);
  review = source;
  $('review').textContent = 'Stop the review';
  $('review-state').textContent = 'starting…';
  const finish = (text) => {
    source.close();
    review = null;
    $('review').textContent = 'Review the game';
    $('review-state').textContent = text;
  };
  source.addEventListener('progress', (e) => {
    const p = JSON.parse(e.data);
    $('review-state').textContent = `${p.done} of ${p.of} positions`;
  });
  source.addEventListener('report', (e) => {
    $('report').replaceChildren(...sanitised(JSON.parse(e.data).html));
    finish('done: the report is below the board');
  });
  source.addEventListener('stopped', (e) => finish(`stopped: ${JSON.parse(e.data).reason}`));
  source.addEventListener('failed', (e) => finish(`failed: ${JSON.parse(e.data).error}`));
  source.onerror = () => {
    if (review === source) finish('stopped: the server refused (a game with no moves?) or went away');
  };
}

// The report's HTML, parsed (never run) and kept to the elements and
// attributes a report has: no script, no style, no handler, no link out.
const REPORT_ELEMENTS = new Set(['section', 'h2', 'h3', 'p', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  'span', 'div', 'figure', 'figcaption', 'a', 'ol', 'ul', 'li', 'b', 'i', 'em', 'strong', 'br',
  'svg', 'g', 'defs', 'marker', 'rect', 'line', 'polyline', 'path', 'circle', 'text', 'tspan', 'title']);
const REPORT_ATTRIBUTES = new Set(['class', 'id', 'title', 'role', 'aria-label', 'colspan',
  'viewbox', 'width', 'height', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'd', 'points',
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'font-size',
  'text-anchor', 'marker-end', 'markerwidth', 'markerheight', 'refx', 'refy', 'orient', 'transform']);

function sanitised(html) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const clean = (node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) continue;
      if (child.nodeType !== Node.ELEMENT_NODE || !REPORT_ELEMENTS.has(child.localName.toLowerCase())) {
        child.remove();
        continue;
      }
      for (const attribute of Array.from(child.attributes)) {
        const name = attribute.name.toLowerCase();
        const value = attribute.value.trim();
        const allowed = REPORT_ATTRIBUTES.has(name) ||
          (name === 'href' && child.localName === 'a' && value.startsWith('#'));
        if (!allowed || /^(javascript|data):/i.test(value)) child.removeAttribute(attribute.name);
      }
      clean(child);
    }
  };
  clean(doc.body);
  return Array.from(doc.body.childNodes);
}

async function setup() {
  try {
    const levels = await api('/api/levels', '');
    for (const l of levels) {
      const option = document.createElement('option');
      option.value = l.level;
      option.textContent = l.plan === 'full strength' ? `${l.level} (full strength)` : `${l.level} (Elo ${l.elo})`;
      option.title = l.plan;
      $('level').appendChild(option);
    }
    $('level').value = String(levels.length);
  } catch (e) {
    say(`cannot reach the server: ${e.message}`, true);
    return;
  }
  try {
    for (const v of await api('/api/variants', '')) {
      const option = document.createElement('option');
      option.value = v.name;
      option.textContent = `${v.name} (${v.size}x${v.size})`;
      $('variant').appendChild(option);
    }
  } catch (e) {
    say(`cannot reach the server: ${e.message}`, true);
    return;
  }
  $('board').addEventListener('click', (e) => {
    const cell = e.target.closest('.cell');
    if (cell && cell.dataset.square) clickSquare(Number(cell.dataset.square));
  });
  $('variant').addEventListener('change', () => { game.variant = $('variant').value; newGame(''); });
  $('engine-side').addEventListener('change', () => engineTurn());
  $('new').addEventListener('click', () => newGame(''));
  $('undo').addEventListener('click', takeBack);
  $('flip').addEventListener('click', () => { flipped = !flipped; render(); });
  $('first').addEventListener('click', () => { game.ply = 0; refresh(); });
  $('prev').addEventListener('click', () => { game.ply = Math.max(0, game.ply - 1); refresh(); });
  $('next').addEventListener('click', () => { game.ply = Math.min(game.moves.length, game.ply + 1); refresh(); });
  $('last').addEventListener('click', () => { game.ply = game.moves.length; refresh(); });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') $('prev').click();
    if (e.key === 'ArrowRight') $('next').click();
  });
  $('analyse').addEventListener('click', toggleAnalysis);
  $('lines').addEventListener('change', () => { if (analysing) startAnalysis(); });
  $('load-fen').addEventListener('click', () => newGame($('fen').value.trim()));
  $('copy-fen').addEventListener('click', () => {
    $('fen').select();
    if (navigator.clipboard) navigator.clipboard.writeText($('fen').value).catch(() => {});
  });
  $('edit').addEventListener('click', startEditing);
  $('edit-clear').addEventListener('click', () => { editing.pieces = {}; render(); });
  $('edit-start').addEventListener('click', async () => {
    try {
      const start = await api('/api/state', new URLSearchParams({ variant: game.variant }));
      editing.pieces = {};
      for (const sq of start.squares) if (sq.piece) editing.pieces[sq.n] = sq.piece;
      $('edit-side').value = start.side;
      render();
    } catch (e) {
      say(e.message, true);
    }
  });
  $('edit-done').addEventListener('click', doneEditing);
  $('save-pdn').addEventListener('click', savePdn);
  $('open-pdn').addEventListener('change', async () => {
    const file = $('open-pdn').files[0];
    if (file) loadPdn(await file.text());
  });
  $('load-pdn').addEventListener('click', () => loadPdn($('pdn-text').value));
  $('pdn-games').addEventListener('change', () => openGame(Number($('pdn-games').value)));
  $('review').addEventListener('click', toggleReview);
  // A page closed or left: its searches stop at once.
  window.addEventListener('pagehide', () => navigator.sendBeacon('/api/cancel?' + new URLSearchParams({ client })));
  refresh();
}

setup();

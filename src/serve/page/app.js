// tempo's board in the browser. The server keeps no game: this page holds
// it (variant, start position, the moves as a tree of the game and the
// variations tried beside it, the move shown) and asks the server for the
// rules' view of it, the engine's moves and its analysis.
'use strict';

const $ = (id) => document.getElementById(id);

let view = null;            // the server's state of the position shown
let flipped = false;
let selected = null;        // the square of the piece picked
let narrowed = null;        // the moves still meant after captured squares were clicked
let entered = [];           // the landing squares of a capture clicked so far, in turn
let analysedFen = null;     // the position the analysis lines are of
let movetime = '1';         // the last good seconds a move
let editing = null;         // the position being set up: { pieces: {n: piece}, side }
let request = 0;            // bumped when the game changes: stale answers are dropped
let thinking = false;
let analysing = false;      // whether the engine analyses every position shown
let analysis = null;        // the EventSource of the running analysis
let analysisLines = [];
let review = null;          // the EventSource of the running review
let reviewed = [];          // the moves of the main line reviewed: the graph's plies
let playing = null;         // the AbortController of the engine's move asked for

// This page's id: every search it starts is its own, and the server
// stops one when the page starts another of the same kind, cancels it or
// goes away. Random, and no secure context needed (unlike randomUUID).
const client = Array.from(crypto.getRandomValues(new Uint8Array(12)),
  (b) => b.toString(16).padStart(2, '0')).join('');

function params(extra) {
  const p = new URLSearchParams({ client, variant: game.variant, moves: hubs(pathTo(game.at)) });
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

// A refusal of what the player asked for (a FEN, a PDN, the seconds): it
// stays in sight until the next thing asked for succeeds.
function notify(text) {
  $('notice').textContent = text || '';
  $('notice').hidden = !text;
}

// Russian draughts writes its moves in coordinates (c3-d4, c3:e5).
const ALGEBRAIC = new Set(['russian']);

// A move's text as the variant writes it.
function notation(text) {
  if (!view || !ALGEBRAIC.has(view.variant)) return text;
  const names = new Map(view.squares.map((sq) => [sq.n, String.fromCharCode(97 + sq.col) + (view.size - sq.row)]));
  return text.replace(/\d+/g, (n) => names.get(Number(n)) || n).replace(/x/g, ':');
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
  const path = pathTo(game.at);
  state.history.forEach((m, i) => { if (path[i]) path[i].text = m.text; });
  // The moves after the one shown (of a game read from PDN) are named by
  // the state of their whole line.
  for (const line of [path.concat(onwards(game.at)), onwards(game.root)]) {
    if (line.every((n) => n.text)) continue;
    try {
      const whole = await api('/api/state', params({ moves: hubs(line) }));
      if (mine !== request) return;
      whole.history.forEach((m, i) => { line[i].text = m.text; });
    } catch (e) {
      if (mine === request) say(e.message, true);
    }
  }
  if (mine !== request) return;
  view = state;
  selected = null;
  narrowed = null;
  entered = [];
  // A FEN being typed is left alone.
  if (document.activeElement !== $('fen')) $('fen').value = state.fen;
  // Lines of another position are dropped, unless they are being renewed.
  if (!analysing && analysedFen !== state.fen) clearAnalysis();
  render();
  describe();
  if (analysing) startAnalysis();
  engineTurn();
}

// The side to move in a FEN (White when it names none).
function sideOf(fen) {
  return /^\s*B/i.test(fen) ? 'black' : 'white';
}

function describe() {
  const over = view.result !== '*';
  $('result').hidden = !over;
  if (over) {
    const winner = { '1-0': 'White wins', '2-0': 'White wins', '0-1': 'Black wins', '0-2': 'Black wins' }[view.result] || 'Draw';
    $('result-score').textContent = view.result;
    $('result-text').textContent = `${winner}: ${view.reason}`;
  }
  if (thinking) return;
  if (view.result !== '*') {
    say(`${view.result}: ${view.reason}`);
  } else if (game.at.children.length > 0) {
    const ply = pathTo(game.at).length;
    say(`move ${ply} of ${ply + onwards(game.at).length} shown: ${view.side} to move`);
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
  const lastSquares = game.at.hub ? squaresOf(game.at.hub) : [];
  const targets = new Set();
  const choices = new Set();
  const taken = new Set();
  const passed = new Set(entered);
  if (selected !== null) {
    const walks = walksLeft();
    for (const w of walks) {
      const at = w.lands.indexOf(entered[entered.length - 1]);
      w.lands.slice(at + 1).forEach((n) => targets.add(n));
    }
    // The pieces every way so far takes on the squares entered.
    if (entered.length > 0 && walks.length > 0) {
      const upto = (w) => w.took.slice(0, w.lands.indexOf(entered[entered.length - 1]) + 1);
      for (const n of upto(walks[0])) if (walks.every((w) => upto(w).includes(n))) taken.add(n);
    }
    const pending = narrowed || [];
    if (pending.length > 1) {
      for (const m of pending) for (const c of m.captured) choices.add(c);
    }
  }
  $('evalbar').classList.toggle('flipped', flipped);
  $('evalbar').title = `evaluation (White at the ${flipped ? 'top' : 'bottom'})`;
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
      if (taken.has(sq.n)) cell.classList.add('taken');
      if (passed.has(sq.n)) cell.classList.add('passed');
    }
  }
  if (!editing) drawArrow();
  renderMoves();
  markGraph();
}

// Whether `n` is still a move of the game (not taken back).
function inGame(n) {
  let x = n;
  while (x.parent) x = x.parent;
  return x === game.root;
}

// The engine's best move, as an arrow over the board.
function drawArrow() {
  const best = analysisLines[0];
  const hub = best && analysedFen === view.fen && best.moves && best.moves[0];
  if (!hub) return;
  const [from, to] = squaresOf(hub);
  const at = new Map(view.squares.map((sq) => [sq.n, sq]));
  if (!at.has(from) || !at.has(to)) return;
  const place = (n) => {
    const sq = at.get(n);
    const row = flipped ? view.size - 1 - sq.row : sq.row;
    const col = flipped ? view.size - 1 - sq.col : sq.col;
    return [col + 0.5, row + 0.5];
  };
  const NS = 'http://www.w3.org/2000/svg';
  const make = (name, attributes) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
    return e;
  };
  const svg = make('svg', { id: 'arrow', viewBox: `0 0 ${view.size} ${view.size}`, 'aria-label': `best move ${notation(best.pv[0])}` });
  const marker = make('marker', { id: 'arrowhead', viewBox: '0 0 10 10', refX: '5', refY: '5', markerWidth: '3', markerHeight: '3', orient: 'auto' });
  marker.appendChild(make('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#2f9e44' }));
  const defs = make('defs', {});
  defs.appendChild(marker);
  svg.appendChild(defs);
  const [x1, y1] = place(from);
  const [x2, y2] = place(to);
  // Stop short of the middle of the square arrived at, for the head.
  const length = Math.hypot(x2 - x1, y2 - y1);
  const cut = length > 0 ? 0.3 / length : 0;
  svg.appendChild(make('line', {
    x1, y1, x2: x2 - (x2 - x1) * cut, y2: y2 - (y2 - y1) * cut,
    stroke: '#2f9e44', 'stroke-width': '0.16', 'stroke-opacity': '0.85', 'stroke-linecap': 'round', 'marker-end': 'url(#arrowhead)',
    'data-from': from, 'data-to': to,
  }));
  $('board').appendChild(svg);
}

function squaresOf(hub) {
  const parts = hub.split(/[-x]/).map(Number);
  return parts.slice(0, 2);
}

// Every way `move` can be walked, as the squares it lands on in turn
// (`to` last) and the piece each jump takes. Found on the board shown:
// a jump goes straight over one piece to take, onto an empty square
// beyond (a man's short jumps are among the long ones; the move's own
// squares and the pieces it takes keep the ways to the real ones).
function walks(move) {
  if (move.captured.length === 0) return [{ lands: [move.to], took: [] }];
  const at = new Map(view.squares.map((sq) => [`${sq.row},${sq.col}`, sq]));
  const byNumber = new Map(view.squares.map((sq) => [sq.n, sq]));
  const turkish = view.variant === 'turkish';
  const steps = turkish ? [[0, 1], [0, -1], [1, 0], [-1, 0]] : [[1, 1], [1, -1], [-1, 1], [-1, -1]];
  const found = [];
  const walk = (sq, left, lands, took) => {
    if (found.length > 64) return;
    if (left.length === 0) {
      if (sq.n === move.to) found.push({ lands, took });
      return;
    }
    // Pieces taken stay on the board until the move ends, except in
    // Turkish draughts, where each goes as it is jumped.
    const full = (s) => s.piece && s.n !== move.from && !(turkish && took.includes(s.n));
    for (const [dr, dc] of steps) {
      let r = sq.row + dr;
      let c = sq.col + dc;
      let over = at.get(`${r},${c}`);
      while (over && !full(over)) { r += dr; c += dc; over = at.get(`${r},${c}`); }
      if (!over || !left.includes(over.n)) continue;
      for (let land = at.get(`${r += dr},${c += dc}`); land && !full(land); land = at.get(`${r += dr},${c += dc}`)) {
        walk(land, left.filter((n) => n !== over.n), [...lands, land.n], [...took, over.n]);
      }
    }
  };
  walk(byNumber.get(move.from), move.captured, [], []);
  return found.length > 0 ? found : [{ lands: [move.to], took: move.captured.slice() }];
}

// Whether `squares` come in `lands` in this order (not all of them).
function inTurn(squares, lands) {
  let i = 0;
  for (const n of lands) if (i < squares.length && n === squares[i]) i++;
  return i === squares.length;
}

// The ways of the picked piece's moves that go through the squares
// entered so far, each with its move.
function walksLeft() {
  const out = [];
  for (const move of candidates()) {
    for (const w of walks(move)) if (inTurn(entered, w.lands)) out.push({ move, ...w });
  }
  return out;
}

// The whole game, the moves after the one shown too, numbered from the
// side that moves first in the variant, the variations in brackets after
// the moves they replace.
function renderMoves() {
  const list = $('moves');
  list.textContent = '';
  const offset = sideOf(view.start) === view.first ? 0 : 1;
  const item = (n, ply, numbered, depth, opens) => {
    const li = document.createElement('li');
    if (opens) {
      const bracket = document.createElement('span');
      bracket.className = 'bracket';
      bracket.textContent = '(';
      li.appendChild(bracket);
    }
    const k = ply + offset;
    const number = Math.floor(k / 2) + 1;
    if (k % 2 === 0 || numbered) {
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = k % 2 === 0 ? `${number}.` : `${number}...`;
      li.appendChild(num);
    }
    const text = document.createElement('span');
    text.className = 'mv';
    text.textContent = notation(n.text || n.hub);
    li.appendChild(text);
    li.dataset.ply = ply + 1;
    if (depth > 0) li.classList.add('var');
    if (n === game.at) li.classList.add('current');
    li.addEventListener('click', () => { game.at = n; refresh(); });
    list.appendChild(li);
  };
  // The line after `from`, `ply` moves into the game, `depth` variations deep.
  const line = (from, ply, depth) => {
    let numbered = true;
    for (let x = from; x.children.length > 0; x = x.children[0], ply++) {
      const [next, ...others] = x.children;
      item(next, ply, numbered, depth, false);
      numbered = false;
      for (const other of others) {
        item(other, ply, true, depth + 1, true);
        line(other, ply + 1, depth + 1);
        const bracket = document.createElement('span');
        bracket.className = 'bracket';
        bracket.textContent = ')';
        list.lastElementChild.appendChild(bracket);
        numbered = true;
      }
    }
  };
  line(game.root, 0, 0);
  // The move shown kept in sight.
  const current = list.querySelector('li.current');
  if (!current) {
    list.scrollTop = 0;
    return;
  }
  const box = list.getBoundingClientRect();
  const at = current.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

// The legal moves the picked piece can still make.
function candidates() {
  const pool = narrowed || view.legal;
  return pool.filter((m) => m.from === selected);
}

// Whether a click may move a piece: not on the engine's turn, unless the
// position shown has a move after it or the game is one read, not played.
function playerMayMove() {
  return !editing && !thinking && view && view.result === '*' &&
    (game.reading || game.at.children.length > 0 || $('engine-side').value !== view.side);
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
  if (selected !== null && pickedSquare(n)) return;
  if (view.legal.some((m) => m.from === n) && n !== selected) {
    selected = n;
  } else {
    selected = null;
  }
  narrowed = null;
  entered = [];
  describe();
  render();
}

// A click on square `n` while a piece is picked: a square it moves to,
// one a capture lands on on its way, or a piece it takes. Whether the
// click was one of those (the piece stays picked, or the move is played).
function pickedSquare(n) {
  const mine = candidates();
  // A piece to take clicked: keep the moves that take it.
  const taking = mine.filter((m) => m.captured.includes(n));
  if (taking.length > 0) {
    if (taking.length < mine.length) narrowed = taking;
    if (narrowed && narrowed.length === 1) play(narrowed[0]);
    else render();
    return true;
  }
  const going = walksLeft().filter((w) => inTurn([...entered, n], w.lands));
  if (going.length === 0) return false;
  const moves = [...new Set(going.map((w) => w.move))];
  const ending = moves.filter((m) => m.to === n);
  if (moves.length === 1 && ending.length === 1) {
    play(moves[0]);
    return true;
  }
  if (ending.length > 1 && ending.length === moves.length) {
    narrowed = ending;
    say('Several captures end there: click a piece to take to choose.');
  } else {
    entered.push(n);
  }
  render();
  return true;
}

function play(move) {
  notify('');
  game.reading = false;
  advance(move.hub, move.text);
  refresh();
}

async function engineTurn() {
  const side = $('engine-side').value;
  if (editing || thinking || game.reading || view.result !== '*' || game.at.children.length > 0 || view.side !== side) return;
  checkSeconds();
  thinking = true;
  const mine = request;
  const asked = new AbortController();
  playing = asked;
  say(`tempo (${side}) is thinking…`);
  try {
    const reply = await api('/api/play', params({ level: $('level').value, movetime }), { signal: asked.signal });
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

// The move shown taken back, and what followed it; the player's move too
// when the engine answered it.
function takeBack() {
  if (game.at === game.root) return;
  request++;
  stopThinking();
  const engine = $('engine-side').value;
  const mover = view && view.side === 'white' ? 'black' : 'white';
  let n = engine !== 'none' && mover === engine && pathTo(game.at).length >= 2 ? 2 : 1;
  for (; n > 0 && game.at.parent; n--) {
    const gone = game.at;
    game.at = gone.parent;
    game.at.children = game.at.children.filter((c) => c !== gone);
  }
  refresh();
}

function newGame(start) {
  request++;
  stopThinking();
  notify('');
  game.start = start || '';
  setTree([]);
  game.players = ['White', 'Black'];
  game.reading = false;
  $('report').textContent = '';
  refresh();
}

// A position typed or set up becomes the start of a new game, once the
// server has read it; one it cannot read is refused and the game kept.
async function loadPosition(fen) {
  if (!fen) return newGame('');
  try {
    await api('/api/state', new URLSearchParams({ variant: game.variant, fen }));
  } catch (e) {
    // The text stays in the box, to be put right.
    notify(e.message);
    return;
  }
  newGame(fen);
}

// The seconds a move typed: a number the server takes, or refused in
// sight and the last good one put back, so that the engine still plays.
function checkSeconds() {
  const text = $('movetime').value.trim();
  const seconds = Number(text);
  if (text === '' || !Number.isFinite(seconds) || seconds < 0.1 || seconds > 60) {
    notify(`seconds a move: '${text}' is not a number from 0.1 to 60; ${movetime} kept`);
    $('movetime').value = movetime;
    return;
  }
  movetime = text;
}

// Analysis: a stream of lines while the page keeps it open.
// Closing the stream stops the search (the server sees the page go).
function closeAnalysis() {
  if (analysis) analysis.close();
  analysis = null;
}

// No lines, an idle bar and no arrow: nothing said of the position shown.
function clearAnalysis() {
  analysisLines = [];
  analysedFen = null;
  $('analysis').textContent = '';
  $('evalbar').classList.add('idle');
  $('evalfill').style.height = '50%';
  const arrow = $('arrow');
  if (arrow) arrow.remove();
}

function startAnalysis() {
  closeAnalysis();
  analysing = true;
  clearAnalysis();
  analysedFen = view.fen;
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

// The lines: each move clickable (the line played onto the board up to
// it), the best one's score on the bar and its first move as an arrow.
function showLines() {
  const out = $('analysis');
  out.textContent = '';
  for (const line of analysisLines) {
    if (!line) continue;
    const li = document.createElement('li');
    for (const [kind, text] of [['depth', `depth ${line.depth}`], ['score', line.score.text]]) {
      const part = document.createElement('span');
      part.className = kind;
      part.textContent = text;
      li.appendChild(part);
    }
    const pv = document.createElement('span');
    pv.className = 'pv';
    line.pv.forEach((text, k) => {
      if (k > 0) pv.appendChild(document.createTextNode(' '));
      const move = document.createElement('a');
      move.className = 'pv-move';
      move.href = '#';
      move.textContent = notation(text);
      move.title = 'play the line to here';
      move.addEventListener('click', (e) => {
        e.preventDefault();
        playLine(line, k + 1);
      });
      pv.appendChild(move);
    });
    li.appendChild(pv);
    out.appendChild(li);
  }
  const best = analysisLines[0];
  if (best) {
    const men = Math.max(-5, Math.min(5, best.score.white));
    $('evalbar').classList.remove('idle');
    $('evalfill').style.height = `${50 + men * 10}%`;
    $('analysis-state').textContent = `depth ${best.depth}, ${best.mnps} M nodes/s`;
    const arrow = $('arrow');
    if (arrow) arrow.remove();
    drawArrow();
  }
}

// The first `count` moves of an analysis line played onto the board from
// the position it is of.
function playLine(line, count) {
  if (analysedFen !== view.fen || thinking) return;
  notify('');
  game.reading = false;
  for (let k = 0; k < count && k < line.moves.length; k++) advance(line.moves[k], line.pv[k]);
  refresh();
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
  render();
  loadPosition(fen);
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
  $('engine-side').addEventListener('change', () => { game.reading = false; engineTurn(); });
  $('movetime').addEventListener('change', () => { checkSeconds(); engineTurn(); });
  $('new').addEventListener('click', () => newGame(''));
  $('undo').addEventListener('click', takeBack);
  $('flip').addEventListener('click', () => { flipped = !flipped; render(); });
  const go = (n) => { game.at = n; refresh(); };
  $('first').addEventListener('click', () => go(game.root));
  $('prev').addEventListener('click', () => go(game.at.parent || game.root));
  $('next').addEventListener('click', () => go(game.at.children[0] || game.at));
  $('last').addEventListener('click', () => go(onwards(game.at).pop() || game.at));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') $('prev').click();
    if (e.key === 'ArrowRight') $('next').click();
  });
  $('analyse').addEventListener('click', toggleAnalysis);
  $('lines').addEventListener('change', () => { if (analysing) startAnalysis(); });
  $('load-fen').addEventListener('click', () => loadPosition($('fen').value.trim()));
  $('fen').addEventListener('keydown', (e) => { if (e.key === 'Enter') loadPosition($('fen').value.trim()); });
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
  $('report').addEventListener('click', clickGraph);
  // A page closed or left: its searches stop at once.
  window.addEventListener('pagehide', () => navigator.sendBeacon('/api/cancel?' + new URLSearchParams({ client })));
  refresh();
}

setup();

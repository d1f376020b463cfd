// tempo's board in the browser: PDN in and out, and the review of a game
// with its clickable graph (the report's HTML kept to a whitelist). Loaded
// after tree.js and before app.js, whose functions it calls once the page
// runs.
'use strict';

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
    if (reply.errors.length > 0) notify(`${reply.errors.length} game(s) could not be read: ${reply.errors[0]}`);
  } catch (e) {
    notify(`cannot read the PDN: ${e.message}`);
  }
}

// A game of the PDN read, shown from its start; the engine keeps its
// side, and plays once the player has moved.
function openGame(i) {
  const g = pdnGames[i];
  const left = g.warnings.length;
  notify(left > 0 ? `${left} variation(s) left out: ${g.warnings[0]}` : '');
  game.variant = g.variant;
  $('variant').value = g.variant;
  request++;
  stopThinking();
  game.start = g.start;
  setTree(g.tree);
  game.players = [g.white, g.black].map((name, side) => (name && name !== '?' ? name : ['White', 'Black'][side]));
  game.reading = true;
  $('report').textContent = '';
  refresh();
}

function savePdn() {
  const link = document.createElement('a');
  link.href = '/api/pdn?' + params({
    moves: hubs(onwards(game.root)), tree: treeTokens(game.root).join(' '), white: game.players[0], black: game.players[1],
  });
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
  const p = new URLSearchParams({ client, variant: game.variant, moves: hubs(onwards(game.root)), white: game.players[0], black: game.players[1] });
  if (game.start) p.set('fen', game.start);
  const source = new EventSource('/api/review?' + p);
  review = source;
  reviewed = onwards(game.root);
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
    markGraph();
    finish('done: the report is below the board; click its graph to see a position');
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

// The review's graph: its points (one a position of the game reviewed,
// from the start) as x in the graph's own units.
function graphPoints(svg) {
  const line = svg.querySelector('polyline');
  if (!line) return [];
  return line.getAttribute('points').trim().split(/\s+/).map((p) => Number(p.split(',')[0]));
}

// A click on the graph shows the position of the point nearest to it.
function clickGraph(e) {
  const svg = e.target.closest('svg.graph');
  if (!svg) return;
  const xs = graphPoints(svg);
  const box = svg.getBoundingClientRect();
  const units = svg.viewBox.baseVal;
  if (xs.length === 0 || box.width === 0) return;
  const x = units.x + (e.clientX - box.left) * units.width / box.width;
  let nearest = 0;
  xs.forEach((px, i) => { if (Math.abs(px - x) < Math.abs(xs[nearest] - x)) nearest = i; });
  const target = nearest === 0 ? game.root : reviewed[nearest - 1];
  if (!target || !inGame(target) || thinking) return;
  game.at = target;
  refresh();
}

// The position shown marked on the graph, when it is one reviewed.
function markGraph() {
  const svg = document.querySelector('#report svg.graph');
  if (!svg) return;
  const old = svg.querySelector('.now');
  if (old) old.remove();
  const at = game.at === game.root ? 0 : reviewed.indexOf(game.at) + 1;
  if (at === 0 && game.at !== game.root) return;
  const x = graphPoints(svg)[at];
  if (x === undefined) return;
  const units = svg.viewBox.baseVal;
  const mark = document.createElementNS('http://www.w3.org/2000/svg', 'line');
  for (const [k, v] of Object.entries({ class: 'now', x1: x, x2: x, y1: units.y, y2: units.y + units.height, stroke: '#ffd43b', 'stroke-width': '2' })) {
    mark.setAttribute(k, v);
  }
  svg.appendChild(mark);
}

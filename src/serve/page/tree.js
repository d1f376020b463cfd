// tempo's board in the browser: the game as a tree of moves (the game's
// line and the variations tried beside it), and its forms for the server.
// Loaded first: pdn.js and app.js use it.
'use strict';

// A move of the tree: its Hub form, its PDN text once the server has
// named it, and the moves tried after it, the first of them the one its
// line goes on with (a game's first moves are the start's children).
function node(hub, text, parent) {
  return { hub, text: text || null, parent, children: [] };
}

const game = {
  variant: 'international',
  start: '',      // FEN of the start position ('' = the variant's own)
  root: node(null, null, null), // the start: its line is the game's main line
  at: null,       // the move the board shows (the root: none)
  players: ['White', 'Black'], // the names a PDN gave, for the review and the PDN saved
  reading: false, // a game read from PDN: the engine joins in once the player moves
};
game.at = game.root;

// The moves from the start to `n`.
function pathTo(n) {
  const out = [];
  for (let x = n; x.parent; x = x.parent) out.unshift(x);
  return out;
}

// The moves of `n`'s line after it, to the line's end.
function onwards(n) {
  const out = [];
  for (let x = n; x.children.length > 0; x = x.children[0]) out.push(x.children[0]);
  return out;
}

const hubs = (nodes) => nodes.map((n) => n.hub).join(' ');

// A game of the moves of `line` (each its `hub`, its `text` and the
// `variations` played instead of it, lines as `line` is, as /api/pdn
// reads them), shown from its start.
function setTree(line) {
  game.root = node(null, null, null);
  const grow = (from, moves) => {
    let x = from;
    for (const m of moves) {
      let next = x.children.find((c) => c.hub === m.hub);
      if (!next) {
        next = node(m.hub, m.text, x);
        x.children.push(next);
      }
      for (const other of m.variations || []) grow(x, other);
      x = next;
    }
  };
  grow(game.root, line);
  game.at = game.root;
}

// Goes on from the move shown with `hub`: the move already tried there,
// or a new one (a variation when the position had a move already).
function advance(hub, text) {
  let next = game.at.children.find((c) => c.hub === hub);
  if (!next) {
    next = node(hub, text, game.at);
    game.at.children.push(next);
  }
  if (!next.text) next.text = text || null;
  game.at = next;
}

// The tree as `tree=` of /api/pdn writes it: the moves after `from`, each
// variation in brackets after the move it replaces.
function treeTokens(from) {
  const out = [];
  for (let x = from; x.children.length > 0; x = x.children[0]) {
    const [next, ...others] = x.children;
    out.push(next.hub);
    for (const other of others) out.push('(', other.hub, ...treeTokens(other), ')');
  }
  return out;
}

// DVONN's board: 49 spaces on a hexagonal grid, drawn from the server's view
// {phase, stacks, last, removed, score, reserve, place}. Space names follow
// the engine's notation: rows 1–5 from the bottom, and letters A–K running
// along diagonals, so that (letter L, row r) touches (L±1, r), (L, r±1),
// (L+1, r+1) and (L−1, r−1).
//
// The board's state lives in one object, b, which every function below
// create takes first.
import { svg, arrowHead, parseMarks } from './svg.js';
import { onSlide, onChoose, setChoosable } from './choose.js';
import { standing } from '../controls.js';

const W = 24; // distance between neighbouring spaces, in drawing units
const H = W * Math.sqrt(3) / 2; // distance between rows
const DISC = 0.41 * W; // radius of a stack
const HOLE = 0.27 * W; // radius of an empty space
const HALO = 0.49 * W; // radius of the ring around a stack one may pick
const LEAVING_MS = 1000; // a little longer than the leaving animation in dvonn.css

// The spaces of each row, as [first letter, last letter] (0 = A).
const ROWS = [[0, 8], [0, 9], [0, 10], [1, 10], [2, 10]];

function centre(col, row) {
  return [W * (col - row / 2), -H * row];
}

function nameOf(col, row) {
  return String.fromCharCode(65 + col) + (row + 1);
}

// spaces lists the board in the engine's row-major order (A1 … K5).
function spaces() {
  const out = [];
  ROWS.forEach(([lo, hi], row) => {
    for (let col = lo; col <= hi; col++) out.push({ col, row, name: nameOf(col, row) });
  });
  return out;
}

// partsOf splits a move in notation: "C3" places, "C3D4" moves a stack.
function partsOf(move) {
  if (!move || move === 'PASS') return null;
  return move.length === 4 ? { from: move.slice(0, 2), to: move.slice(2) } : { to: move };
}

export function create(el, ctx) {
  const root = svg('svg', { class: 'board-svg dvonn', role: 'group' });
  root.setAttribute('aria-label', ctx.t('board.label', { game: ctx.t('game.dvonn.name') }));
  el.replaceChildren(root);
  const cells = spaces();
  const b = {
    ctx, root, cells,
    byName: new Map(cells.map((c) => [c.name, c])),
    arrow: svg('g', { class: 'last-arrow', 'aria-hidden': 'true' }),
    state: null,
    selected: null, // the stack picked to move, until its landing space is clicked
    live: { ply: null, list: [] }, // stacks cut off by the last stack move of the game
    seen: null, // the number of moves in the last live position drawn
    carried: null, // a stack being slid to its landing space: {from, before}
  };
  build(b);
  wireSlide(b);
  return {
    update: (state) => {
      b.state = state;
      paint(b);
    },
  };
}

// A piece is slid onto its space, or a stack carried to where it lands;
// while it is carried it shows as chosen. A slide that ends anywhere else
// leaves the board as it was before the press.
function wireSlide(b) {
  onSlide(b.root, {
    start: (g) => {
      if (!b.ctx.send || !b.state) return false;
      const { place, moves } = offers(b);
      return place.size > 0 || (g !== null && moves.has(g.dataset.cell));
    },
    begin: (g) => {
      const { moves } = offers(b);
      if (!g || !moves.has(g.dataset.cell)) return;
      b.carried = { from: g.dataset.cell, before: b.selected };
      b.selected = b.carried.from;
      paint(b);
    },
    over: (g) => landing(b, g) !== null,
    drop: (g) => {
      const move = landing(b, g);
      const was = b.carried;
      b.carried = null;
      if (move === null) {
        if (was) {
          b.selected = was.before;
          paint(b);
        }
        return;
      }
      b.selected = null;
      b.ctx.send(move);
    },
  });
}

// landing is the move that letting go over g would make, or null.
function landing(b, g) {
  if (!g || !b.state) return null;
  const name = g.dataset.cell;
  const { place, moves } = offers(b);
  if (b.carried) return moves.get(b.carried.from)?.has(name) ? b.carried.from + name : null;
  return place.has(name) ? name : null;
}

// build draws the board: its plate, lines, coordinates and spaces.
function build(b) {
  const box = { xs: [], ys: [] }; // what the view box must hold
  const extend = (x, y, r = 0) => {
    box.xs.push(x - r, x + r);
    box.ys.push(y - r, y + r);
  };
  // Empty spaces lie under the last move's arrow, stacks above it.
  const holes = svg('g', { class: 'holes', 'aria-hidden': 'true' });
  const grid = svg('g', { class: 'spaces' });
  for (const c of b.cells) {
    makeSpace(b, c);
    extend(c.x, c.y, W * 0.6);
    holes.append(c.hole);
    grid.append(c.g);
  }
  b.root.append(plate(), lines(b), holes, b.arrow, grid, labels(extend));
  const { xs, ys } = box;
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  b.root.setAttribute('viewBox', [minX, minY, Math.max(...xs) - minX, Math.max(...ys) - minY].map((v) => v.toFixed(1)).join(' '));
}

// plate is the board's outline through the six corner spaces; a wide
// round stroke turns it into a plate under all of them.
function plate() {
  const corners = [[0, 0], [8, 0], [10, 2], [10, 4], [2, 4], [0, 2]].map(([c, r]) => centre(c, r).map((v) => v.toFixed(2)).join(' '));
  return svg('path', { class: 'plate', d: `M${corners.join('L')}Z`, 'stroke-width': W * 1.1 });
}

// lines along the three directions show where stacks can travel.
function lines(b) {
  let d = '';
  for (const c of b.cells) {
    const [x, y] = centre(c.col, c.row);
    for (const [dc, dr] of [[1, 0], [0, 1], [1, 1]]) {
      if (b.byName.has(nameOf(c.col + dc, c.row + dr))) {
        const [x2, y2] = centre(c.col + dc, c.row + dr);
        d += `M${x.toFixed(2)} ${y.toFixed(2)}L${x2.toFixed(2)} ${y2.toFixed(2)}`;
      }
    }
  }
  return svg('path', { class: 'lines', d, 'aria-hidden': 'true' });
}

// labels names the rows and the letters' diagonals at their ends; extend
// makes room for each label in the view box.
function labels(extend) {
  const g = svg('g', { class: 'coords', 'aria-hidden': 'true' });
  let stubs = '';
  const label = (text, col, row, towardsCol, towardsRow) => {
    // A label sits most of a step beyond the end of its row or diagonal;
    // a letter's slanted line is drawn on towards it, as letters do not
    // stand under their spaces.
    const [x0, y0] = centre(col, row);
    const [x1, y1] = centre(towardsCol, towardsRow);
    const x = x0 + 0.8 * (x1 - x0);
    const y = y0 + 0.8 * (y1 - y0);
    if (towardsCol === col) {
      const f = (k) => [x0 + k * (x1 - x0), y0 + k * (y1 - y0)].map((v) => v.toFixed(2)).join(' ');
      stubs += `M${f(0.3)}L${f(0.58)}`;
    }
    g.append(svg('text', { x: x.toFixed(2), y: y.toFixed(2), dy: '0.35em' }, text));
    extend(x, y, 5);
  };
  ROWS.forEach(([lo], row) => label(String(row + 1), lo, row, lo - 1, row));
  for (let col = 0; col <= 10; col++) {
    const rows = ROWS.map(([lo, hi], row) => (col >= lo && col <= hi ? row : -1)).filter((r) => r >= 0);
    const first = rows[0];
    const last = rows[rows.length - 1];
    const letter = String.fromCharCode(65 + col);
    label(letter, col, first, col, first - 1);
    if (last === 4) label(letter, col, last, col, last + 1);
  }
  g.append(svg('path', { class: 'stubs', d: stubs }));
  return g;
}

// makeSpace draws space c with everything it may show, and listens to it.
function makeSpace(b, c) {
  const [x, y] = centre(c.col, c.row);
  c.x = x;
  c.y = y;
  c.g = svg('g', { class: 'space', 'data-cell': c.name });
  c.disc = svg('circle', { class: 'disc', cx: x, cy: y, r: DISC });
  c.num = svg('text', { class: 'height', x, y, dy: '0.36em' });
  c.leaving = svg('circle', { class: 'leaving', cx: x, cy: y, r: DISC });
  c.ghostNum = svg('text', { class: 'ghost-height', x, y, dy: '0.36em' });
  c.hole = svg('circle', { class: 'hole', cx: x, cy: y, r: HOLE });
  c.g.append(
    svg('circle', { class: 'hit', cx: x, cy: y, r: W / 2 }),
    svg('circle', { class: 'ghost', cx: x, cy: y, r: DISC - 1 }),
    c.ghostNum,
    c.disc,
    svg('circle', { class: 'dvonn-ring', cx: x, cy: y, r: DISC * 0.74 }),
    c.num,
    c.leaving,
    svg('circle', { class: 'halo', cx: x, cy: y, r: HALO }),
    svg('circle', { class: 'pointer', cx: x, cy: y, r: HALO }),
    svg('circle', { class: 'last-mark', cx: x + DISC * 0.72, cy: y - DISC * 0.72, r: W * 0.11 }),
    svg('circle', { class: 'focus-ring', cx: x, cy: y, r: HALO + 1.5 }),
  );
  onChoose(c.g, () => choose(b, c.name));
  c.g.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && b.selected) {
      b.selected = null;
      paint(b);
    }
  });
}

// offers splits the legal moves into placements and, per stack that can
// move, its landing spaces.
function offers(b) {
  const place = new Set();
  const moves = new Map();
  if (!b.ctx.send || !b.state) return { place, moves };
  for (const m of b.state.legal || []) {
    const p = partsOf(m);
    if (!p) continue;
    if (!p.from) {
      place.add(p.to);
    } else {
      if (!moves.has(p.from)) moves.set(p.from, new Set());
      moves.get(p.from).add(p.to);
    }
  }
  return { place, moves };
}

function choose(b, name) {
  if (!b.ctx.send || !b.state) return;
  const { place, moves } = offers(b);
  if (place.has(name)) {
    b.ctx.send(name);
  } else if (b.selected && moves.get(b.selected)?.has(name)) {
    const move = b.selected + name;
    b.selected = null;
    b.ctx.send(move);
  } else if (moves.has(name)) {
    b.selected = b.selected === name ? null : name;
    paint(b);
  } else if (b.selected) {
    b.selected = null;
    paint(b);
  } else {
    // A stack of the player's that cannot move is no empty space.
    const stack = b.state.view.stacks.find((s) => s.space === name);
    b.ctx.refused?.(name, moves.size > 0 && stack?.top === b.state.seat ? 'dvonn.stuck' : undefined);
  }
}

// lastMove is the move to mark. A forced pass changes nothing on the
// board, so the stack move before it stays marked.
function lastMove(state) {
  const moves = state.moves;
  if (moves) {
    for (let i = moves.length - 1; i >= 0 && i >= moves.length - 2; i--) {
      if (moves[i] !== 'PASS') return partsOf(moves[i]);
    }
    return null;
  }
  const last = state.view.last;
  return last && !last.pass ? { from: last.from, to: last.to } : null;
}

// cutOff returns what the last stack move removed. The view forgets it
// once the next player passes; in the live game the board keeps showing it
// until a real move. Diagrams and replayed positions (no move list) show
// what their view says.
function cutOff(b) {
  const { state } = b;
  const view = state.view;
  if (!state.moves) return { list: view.removed || [] };
  const ply = state.moves.length;
  if (b.live.ply !== ply) {
    if (view.removed.length) {
      // Only a cut-off seen as it happens is animated, not one found on load.
      b.live = { ply, list: view.removed, at: b.seen === ply - 1 ? performance.now() : null };
    } else if (view.last && view.last.pass && b.live.ply === ply - 1) {
      b.live = { ...b.live, ply };
    } else {
      b.live = { ply, list: [] };
    }
  }
  b.seen = ply;
  return b.live;
}

function paint(b) {
  const { state } = b;
  const view = state.view;
  const { place, moves } = offers(b);
  if (b.selected && !moves.has(b.selected)) b.selected = null;
  const removed = cutOff(b);
  const p = {
    place, moves, view, removed,
    stacking: moves.size > 0,
    targets: b.selected ? moves.get(b.selected) : new Set(),
    stacks: new Map(view.stacks.map((s) => [s.space, s])),
    last: lastMove(state),
    gone: new Map(removed.list.map((s) => [s.space, s])),
    // While the leaving animation runs, it must not be restarted or cut
    // short by a repaint (the forced pass that often follows a cut-off).
    fresh: removed.at != null && performance.now() - removed.at < LEAVING_MS,
    marks: parseMarks(b.ctx.marks, (name) => b.byName.has(name)).cells,
    preview: partsOf(state.preview), // chosen, waiting for the player to confirm
  };
  b.root.setAttribute('class', `board-svg dvonn place-${view.place || 'none'}` + (b.selected ? ' choosing' : ''));
  for (const c of b.cells) paintSpace(b, p, c);
  b.arrow.replaceChildren();
  drawArrow(b, p.last, 'last');
  drawArrow(b, p.preview, 'preview');
}

// paintSpace sets the classes, height and accessible name of space c from
// p, what paint gathered.
function paintSpace(b, p, c) {
  const { state, selected } = b;
  const stack = p.stacks.get(c.name);
  const cut = p.gone.get(c.name);
  const last = p.last;
  const cls = ['space'];
  if (stack) {
    cls.push(stack.top);
    if (stack.dvonns > 0 && stack.top !== 'red') cls.push('has-dvonn');
    c.num.textContent = String(stack.height);
  } else {
    cls.push('empty');
    c.num.textContent = '';
  }
  if (cut) {
    cls.push('gone', 'gone-' + cut.top);
    if (p.fresh) cls.push('fresh');
    c.ghostNum.textContent = stack ? '' : String(cut.height);
  }
  const pickable = p.place.has(c.name) || p.moves.has(c.name) || p.targets.has(c.name);
  if (p.place.has(c.name)) cls.push('legal');
  if (p.moves.has(c.name)) cls.push(c.name === selected ? 'selected' : 'movable');
  if (p.targets.has(c.name)) cls.push('target');
  if (p.stacking && stack && stack.top === state.seat && !p.moves.has(c.name)) cls.push('stuck');
  if (last && c.name === last.to) cls.push('last');
  if (last && c.name === last.from) cls.push('last-from');
  if (p.marks.has(c.name)) cls.push('marked');
  if (p.preview && c.name === p.preview.to) {
    if (p.preview.from) cls.push('preview-to');
    else cls.push('preview', 'preview-' + (p.view.place || state.to_move));
  }
  if (p.preview && c.name === p.preview.from) cls.push('preview-from');
  c.g.setAttribute('class', cls.join(' '));
  c.hole.setAttribute('class', ['hole', stack ? 'covered' : '', p.place.has(c.name) ? 'legal' : '',
    last && c.name === last.from ? 'last-from' : ''].filter(Boolean).join(' '));
  setChoosable(c.g, pickable);
  c.g.setAttribute('aria-label', describe(b, c.name, stack, cut, {
    movable: p.moves.has(c.name) && c.name !== selected,
    selected: c.name === selected,
    target: p.targets.has(c.name),
    stuck: cls.includes('stuck'),
    last: last && c.name === last.to,
    lastFrom: last && c.name === last.from,
  }));
}

function describe(b, name, stack, cut, is) {
  const t = b.ctx.t;
  let text = stackText(name, stack, t);
  if (cut && !stack) text = t('dvonn.cell.gone_' + cut.top, { label: text, height: cut.height });
  if (is.selected) text = t('dvonn.cell.selected', { label: text });
  else if (is.movable) text = t('dvonn.cell.movable', { label: text });
  else if (is.stuck) text = t('dvonn.cell.stuck', { label: text });
  if (is.target) text = t('dvonn.cell.target', { label: text, from: b.selected });
  if (is.last) text = t('dvonn.cell.last', { label: text });
  if (is.lastFrom) text = t('dvonn.cell.last_from', { label: text });
  return text;
}

// drawArrow points from where a stack left to where it landed; only the
// part between the two spaces shows, under the stacks it jumped.
function drawArrow(b, move, cls) {
  if (!move || !move.from) return;
  const from = b.byName.get(move.from);
  const to = b.byName.get(move.to);
  if (!from || !to) return;
  const { base, head } = arrowHead([from.x, from.y], [to.x, to.y], DISC + 1, W * 0.3, W * 0.14);
  const g = svg('g', { class: cls });
  b.arrow.append(g);
  g.append(
    svg('line', { x1: from.x.toFixed(2), y1: from.y.toFixed(2), x2: base[0].toFixed(2), y2: base[1].toFixed(2) }),
    svg('polygon', { points: head }),
  );
}

// stackText names what stands on a space, such as "C3, white stack of 3
// with a DVONN piece".
function stackText(name, stack, t) {
  if (!stack) return t('dvonn.cell.empty', { space: name });
  if (stack.top === 'red') return t('dvonn.cell.red', { space: name });
  const key = stack.height === 1 ? `dvonn.cell.${stack.top}_piece` : `dvonn.cell.${stack.top}_stack`;
  const text = t(key, { space: name, height: stack.height });
  if (stack.dvonns === 0) return text;
  return t('dvonn.cell.with_dvonns', { label: text, n: stack.dvonns });
}

function colour(seat, t) {
  return t('colour.' + seat);
}

// moveLabel writes a pass in words and says how many pieces a move cut off,
// never on a line of its own.
export function moveLabel(move, captured, t) {
  if (move === 'PASS') return t('dvonn.moves.pass');
  return captured > 0 ? `${move}\u00a0×${captured}` : move;
}

// eventText tells what a move did. A forced pass comes right after the move
// that caused it, so it repeats that move: a screen reader may only read
// the newer of two quick announcements.
export function eventText(event, state, t) {
  const moves = standing(state.events);
  const i = moves.findIndex((e) => e.seq === event.seq);
  if (event.move === 'PASS') {
    const pass = t('dvonn.announce.pass', { colour: colour(event.seat, t) });
    const before = moves[i - 1];
    return before && before.move !== 'PASS' ? moveText(before, i - 1, state, t) + ' ' + pass : pass;
  }
  return moveText(event, i, state, t);
}

function moveText(event, i, state, t) {
  const p = partsOf(event.move);
  const who = colour(event.seat, t);
  if (!p.from) {
    const stack = state.view.stacks.find((s) => s.space === p.to);
    const key = stack && stack.top === 'red' ? 'dvonn.announce.place_dvonn' : 'dvonn.announce.place';
    return t(key, { colour: who, space: p.to });
  }
  let text = t('dvonn.announce.move', { colour: who, from: p.from, to: p.to });
  const cut = (state.captured || [])[i] || 0;
  if (cut > 0) text += ' ' + t('dvonn.announce.cut', { count: cut });
  return text;
}

// summary keeps the score in sight, the pieces still to place while the
// board fills, and says when the last player had to pass.
export function summary(state, t) {
  const view = state.view;
  const parts = [t('dvonn.summary.score', { white: view.score.white, black: view.score.black })];
  if (view.phase === 'placement' && view.reserve) {
    const r = view.reserve;
    parts.push(t(r.red > 0 ? 'dvonn.summary.reserve_red' : 'dvonn.summary.reserve', r));
  }
  const last = state.events[state.events.length - 1];
  if (last && last.kind === 'move' && last.move === 'PASS') {
    parts.push(t('dvonn.announce.pass', { colour: colour(last.seat, t) }));
  }
  return parts.join(' ');
}

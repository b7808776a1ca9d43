// Fanorona's board: 9 × 5 points joined by lines, drawn from the server's
// view {board, to_move, ply, counter, draw_at, white, black, last_turn,
// captured, takes}. board has one character per point (W, B or .) in the
// order a1 … i1, a2 … i5.
//
// A turn is built click by click and matched against state.legal, which
// lists every legal turn and every prefix of a capture chain. The page
// decides nothing: a step is offered only if some legal turn goes on with
// it, and what a step captures is read from the view's takes, which gives
// the points every legal turn empties.
//
// The board's state lives in one object, b, which every function below
// create takes first.
import { svg, arrowHead, pointList, parseMarks, still, glide, ghost } from './svg.js';
import { onSlide, onChoose, setChoosable, hasFocus, keepFocus, CHOICE } from './choose.js';
import { button, standing } from '../controls.js';

const FILES = 'abcdefghi';
const S = 10; // distance between neighbouring points, in drawing units
const PIECE = 3.4; // radius of a piece
const STEP_MS = 420; // time per step when a turn is replayed
const REPLAY_MS = 2600; // long chains go faster, to be over in about this time
const SLIDE_MS = 220; // time a piece takes to slide to its next point
const GHOST_MS = 400; // time a captured piece takes to vanish

const fileOf = (i) => i % 9;
const rankOf = (i) => Math.floor(i / 9);
const nameOf = (i) => FILES[fileOf(i)] + (rankOf(i) + 1);
const indexOf = (name) => (name.charCodeAt(1) - 49) * 9 + (name.charCodeAt(0) - 97);
const isPoint = (name) => /^[a-i][1-5]$/.test(name);
const xy = (i) => [fileOf(i) * S, (4 - rankOf(i)) * S];
const onBoard = (f, r) => f >= 0 && f < 9 && r >= 0 && r < 5;
// Diagonal lines run through the strong points only.
const strong = (i) => (fileOf(i) + rankOf(i)) % 2 === 0;

// taken lists the points that the last step of turn, a legal turn in
// notation, empties: what the view says the turn takes and the turn
// without its last step did not.
function taken(view, turn) {
  const all = (text) => ((view.takes || {})[text] || []).map(indexOf);
  const before = new Set(all(turn.slice(0, turn.lastIndexOf('-'))));
  return all(turn).filter((c) => !before.has(c));
}

// parseTurn splits a turn in notation into its start and steps.
function parseTurn(text) {
  const [from, ...rest] = text.split('-');
  return { from: indexOf(from), steps: rest.map((s) => ({ to: indexOf(s.slice(0, 2)), how: s.slice(2) })) };
}

// pathOf lists the points a turn's piece stands on, its start first.
function pathOf(turn) {
  return [turn.from, ...turn.steps.map((s) => s.to)];
}

// replay plays a turn on the view before it for the eyes: one frame per
// step, each with the board after it and the pieces it took. null if the
// text does not fit the view, so that nothing wrong is ever shown.
function replay(before, text) {
  if (!/^[a-i][1-5](-[a-i][1-5][AW]?)+$/.test(text)) return null;
  const { from, steps } = parseTurn(text);
  const board = before.board.split('');
  const colour = board[from];
  if (colour !== 'W' && colour !== 'B') return null;
  const frames = [{ board: board.join(''), at: from, path: [from], took: [] }];
  let p = from;
  let prefix = nameOf(from);
  for (const { to, how } of steps) {
    if (board[to] !== '.') return null;
    prefix += '-' + nameOf(to) + how;
    const took = taken(before, prefix);
    if (how && took.length === 0) return null;
    board[p] = '.';
    board[to] = colour;
    for (const c of took) board[c] = '.';
    frames.push({ board: board.join(''), at: to, from: p, path: [...frames.at(-1).path, to], took });
    p = to;
  }
  return frames;
}

// prefixOf writes a turn under construction in notation.
function prefixOf(turn) {
  return nameOf(turn.from) + turn.steps.map((s) => '-' + nameOf(s.to) + s.how).join('');
}

// nextSteps maps each landing point that some legal turn reaches from
// prefix in one more step to the ways (A, W, or '' for a plain move) of
// getting there.
function nextSteps(legal, prefix) {
  const out = new Map();
  const head = prefix + '-';
  for (const l of legal) {
    if (!l.startsWith(head)) continue;
    const token = l.slice(head.length).split('-')[0];
    const to = indexOf(token.slice(0, 2));
    if (!out.has(to)) out.set(to, new Set());
    out.get(to).add(token.slice(2));
  }
  return out;
}

let boards = 0; // numbers the boards of a page, for ids that must be unique

export function create(el, ctx) {
  const b = {
    el, ctx, t: ctx.t,
    root: svg('svg', {
      class: 'board-svg fanorona', role: 'group', viewBox: '-10 -6 96 56',
      'aria-label': ctx.t('board.label', { game: ctx.t('game.fanorona.name') }),
    }),
    controls: null, // the hint and buttons under a board one plays on
    hint: null,
    buttons: null,
    points: [], // per point: {g, piece, letter}
    trail: svg('g', { class: 'trail', 'aria-hidden': 'true' }),
    ghosts: svg('g', { class: 'ghosts', 'aria-hidden': 'true' }),
    view: null,
    legal: [],
    legalKey: '',
    turn: null, // the turn being built: {from, steps, board, colour}
    choice: null, // a landing point reached by approach or withdrawal: {to, ways}
    sent: null, // the turn handed to ctx.send, until the server answers
    anim: null, // the opponent's turn being replayed: {frames, k, timer, pace}
    updates: 0,
    targets: new Map(), // landing point -> ways, while the player chooses
    controlsKey: '',
    carried: null, // a piece being slid to its landing point: {turn, before}
  };
  if (ctx.send) makeControls(b, `fanorona-${++boards}`);
  el.replaceChildren(b.root, ...(b.controls ? [b.controls] : []));
  build(b);
  wireSlide(b);
  // A tap focuses a point too; only a keyboard's focus shows threats. The
  // focus is listened to here rather than on each point: Chromium makes
  // every SVG element with a focus listener of its own a tab stop, and all
  // 45 points would be in the way.
  el.addEventListener('focusin', (e) => {
    const g = e.target.closest?.('.pt');
    if (g && g.matches(':focus-visible')) threaten(b, indexOf(g.dataset.cell));
  });
  el.addEventListener('focusout', (e) => { if (e.target.closest?.('.pt')) threaten(b, -1); });
  // Escape puts away the question of which line to take, or else the turn
  // being built.
  el.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || b.sent || !b.turn) return;
    if (b.choice) b.choice = null;
    else b.turn = null;
    draw(b);
  });
  return { update: (state) => update(b, state) };
}

// makeControls adds the hint and the buttons under the board of a player.
function makeControls(b, id) {
  b.controls = document.createElement('div');
  b.controls.className = 'fanorona-controls';
  b.controls.hidden = true;
  b.hint = document.createElement('p');
  b.hint.className = 'fanorona-hint';
  b.hint.id = id + '-hint';
  b.hint.setAttribute('aria-live', 'polite');
  b.root.setAttribute('aria-describedby', b.hint.id);
  b.buttons = document.createElement('div');
  b.buttons.className = 'fanorona-buttons';
  b.controls.append(b.hint, b.buttons);
}

// A piece is carried from where it stands to where it lands, as if it
// were clicked and then the point. While it is carried it shows as picked;
// a slide that ends anywhere else leaves the turn as it was before the
// press.
function wireSlide(b) {
  const pointOf = (g) => (g ? indexOf(g.dataset.cell) : -1);
  onSlide(b.root, {
    start: (g) => carriable(b, g),
    begin: (g) => {
      if (b.anim) finishAnimation(b);
      if (!carriable(b, g)) return;
      const i = pointOf(g);
      b.carried = { before: b.turn, turn: b.turn };
      if (!b.turn || (b.turn.steps.length === 0 && b.turn.from !== i)) {
        b.turn = b.carried.turn = pick(b, i);
        draw(b);
      }
    },
    over: (g) => {
      const ok = landable(b, pointOf(g));
      threaten(b, ok ? pointOf(g) : -1);
      return ok;
    },
    drop: (g) => dropCarried(b, pointOf(g)),
  });
}

// dropCarried ends a slide over point i (-1 for none): the piece lands
// there, or the turn goes back to what it was before the slide.
function dropCarried(b, i) {
  const ok = landable(b, i);
  const was = b.carried;
  b.carried = null;
  threaten(b, -1);
  if (ok) return land(b, i, nextSteps(b.legal, prefixOf(b.turn)).get(i));
  // Only a turn this slide picked is put back; one the server reset
  // meanwhile is left alone.
  if (was && b.turn === was.turn && b.turn !== was.before) {
    b.turn = was.before;
    draw(b);
  }
}

// carriable says whether the piece on g may be carried: one that can
// begin a turn, or the one moving while a capture chain goes on.
function carriable(b, g) {
  if (!b.ctx.send || b.sent || b.choice || b.legal.length === 0 || !g) return false;
  const i = indexOf(g.dataset.cell);
  return b.turn && b.turn.steps.length > 0 ? i === b.turn.steps.at(-1).to : starts(b).has(i);
}

// landable says whether the carried piece may land on i.
function landable(b, i) {
  return i >= 0 && !!b.carried && b.turn === b.carried.turn && !b.sent && !b.choice &&
    nextSteps(b.legal, prefixOf(b.turn)).has(i);
}

// build draws the board: its lines, coordinates and points, and the
// layers for the trail and the vanishing pieces.
function build(b) {
  const bg = svg('rect', { class: 'bg', x: -5, y: -5, width: 8 * S + 10, height: 4 * S + 10, rx: 2 });
  const lines = svg('path', { class: 'lines', d: linesPath() });
  const labels = svg('g', { class: 'coords', 'aria-hidden': 'true' });
  for (let f = 0; f < 9; f++) labels.append(svg('text', { x: f * S, y: 4 * S + 8.5 }, FILES[f]));
  for (let r = 0; r < 5; r++) labels.append(svg('text', { x: -8, y: (4 - r) * S, dy: '0.35em' }, String(r + 1)));
  const grid = svg('g', { class: 'points' });
  for (let i = 0; i < 45; i++) grid.append(makePoint(b, i));
  b.root.append(bg, lines, labels, b.trail, grid, b.ghosts);
}

// linesPath is the path of every line of the board.
function linesPath() {
  let d = '';
  for (let i = 0; i < 45; i++) {
    const [x, y] = xy(i);
    const f = fileOf(i);
    const r = rankOf(i);
    const dirs = [[1, 0], [0, 1]];
    if (strong(i)) dirs.push([1, 1], [1, -1]);
    for (const [df, dr] of dirs) {
      if (!onBoard(f + df, r + dr)) continue;
      const [x2, y2] = xy((r + dr) * 9 + f + df);
      d += `M${x} ${y}L${x2} ${y2}`;
    }
  }
  return d;
}

// makePoint draws point i with everything it may show, and listens to it.
function makePoint(b, i) {
  const [x, y] = xy(i);
  const g = svg('g', { class: 'pt', 'data-cell': nameOf(i) });
  const piece = svg('circle', { class: 'piece', cx: x, cy: y, r: PIECE });
  const letter = svg('text', { class: 'letter', x, y, dy: '0.35em' });
  g.append(
    svg('circle', { class: 'hit', cx: x, cy: y, r: S * 0.48 }),
    svg('circle', { class: 'focus', cx: x, cy: y, r: PIECE + 1.3 }),
    svg('circle', { class: 'dot', cx: x, cy: y, r: 1.5 }),
    svg('rect', { class: 'seen', x: x - 1.6, y: y - 1.6, width: 3.2, height: 3.2 }),
    piece,
    svg('circle', { class: 'ring', cx: x, cy: y, r: PIECE + 0.9 }),
    svg('path', { class: 'cross halo', d: cross(x, y, 1.9) }),
    svg('path', { class: 'cross', d: cross(x, y, 1.9) }),
    letter,
  );
  onChoose(g, () => press(b, i));
  g.addEventListener('pointerenter', () => threaten(b, i));
  g.addEventListener('pointerleave', () => threaten(b, -1));
  b.points.push({ g, piece, letter });
  return g;
}

function update(b, state) {
  b.updates++;
  const v = state.view;
  const now = b.ctx.send ? state.legal || [] : [];
  const key = now.join(' ');
  if (b.view && v.ply === b.view.ply + 1 && v.last_turn !== b.sent) {
    animate(b, b.view, v);
  } else if (!b.view || v.ply !== b.view.ply) {
    stopAnimation(b);
  }
  if (!b.view || v.ply !== b.view.ply) {
    b.turn = b.choice = b.sent = null;
  } else if (key !== b.legalKey && !(b.sent && key === '')) {
    // The turn was refused, or the game changed under it: start again.
    b.turn = b.choice = b.sent = null;
  }
  b.view = v;
  b.legal = now;
  b.legalKey = key;
  if (b.ctx.send && state.preview) showPreview(b, state.preview);
  draw(b);
}

// showPreview shows a turn waiting for the player's confirmation, perhaps
// typed rather than clicked, as played.
function showPreview(b, preview) {
  if (b.turn && prefixOf(b.turn) === preview) return;
  const frames = replay(b.view, preview);
  if (!frames) return;
  const { from, steps } = parseTurn(preview);
  b.turn = { from, steps, board: frames.at(-1).board.split(''), colour: b.view.board[from] };
  b.choice = null;
  b.sent = preview;
}

// press handles a click, tap or key on point i.
function press(b, i) {
  if (b.anim) finishAnimation(b);
  if (!b.ctx.send || b.sent) return;
  if (b.legal.length === 0) return b.ctx.refused?.(nameOf(i)); // not the player's turn
  if (b.choice) {
    const way = b.choice.ways.find((w) => w.took.includes(i));
    if (way) return step(b, b.choice.to, way.how);
    // Anything else puts the question away.
    b.choice = null;
    return draw(b);
  }
  const options = b.turn ? nextSteps(b.legal, prefixOf(b.turn)) : new Map();
  if (options.has(i)) return land(b, i, options.get(i));
  if (b.turn && b.turn.steps.length > 0) return;
  b.turn = starts(b).has(i) && !(b.turn && b.turn.from === i) ? pick(b, i) : null;
  draw(b);
}

// starts are the points of the pieces that can begin a legal turn.
function starts(b) {
  return new Set(b.legal.map((l) => indexOf(l.slice(0, 2))));
}

// pick begins a turn with the piece on i.
function pick(b, i) {
  return { from: i, steps: [], board: b.view.board.split(''), colour: b.view.board[i] };
}

// land moves the picked piece to i, or asks which line to take when the
// step can capture both ways.
function land(b, i, ways) {
  if (ways.size === 1) return step(b, i, [...ways][0]);
  b.choice = {
    to: i,
    ways: [...ways].sort().map((how) => ({ how, took: taken(b.view, stepText(b, i, how)) })),
  };
  draw(b);
}

// stepText writes the turn being built with one more step, to i.
function stepText(b, i, how) {
  return prefixOf(b.turn) + '-' + nameOf(i) + how;
}

// step adds one step to the turn; the turn goes to the server as soon as
// no legal turn continues it.
function step(b, to, how) {
  const turn = b.turn;
  const p = turn.steps.length ? turn.steps.at(-1).to : turn.from;
  const took = taken(b.view, stepText(b, to, how));
  const enemy = turn.colour === 'W' ? 'B' : 'W';
  turn.board[p] = '.';
  turn.board[to] = turn.colour;
  for (const c of took) turn.board[c] = '.';
  turn.steps.push({ to, how });
  b.choice = null;
  const text = prefixOf(turn);
  if (nextSteps(b.legal, text).size === 0) submit(b, text);
  else draw(b);
  slide(b, p, to);
  fade(b, took, enemy);
}

function submit(b, text) {
  if (!b.legal.includes(text)) return;
  b.sent = text;
  const before = b.updates;
  b.ctx.send(text);
  // A page that could not send draws nothing; then the turn starts over.
  if (b.updates === before) {
    b.sent = b.turn = b.choice = null;
    draw(b);
  }
}

function stop(b) {
  if (b.turn && b.turn.steps.length > 0 && !b.sent) submit(b, prefixOf(b.turn));
}

function restart(b) {
  if (b.sent) return;
  b.turn = b.choice = null;
  draw(b);
}

// draw sets every point's classes and label from the position shown: a
// frame of a replay, the turn being built, or the server's view.
function draw(b) {
  if (!b.view) return;
  const hadFocus = hasFocus(b.el);
  const s = scene(b);
  b.targets = s.targets;
  b.points.forEach((pt, i) => drawPoint(b, s, pt, i));
  drawTrail(b, s);
  drawControls(b, s.mine, s.building);
  // The focus follows the turn being built, and rests on the piece moved
  // once it is sent. A position from the server (the friend's turn, which
  // the page announces) leaves it where the player put it, unless what had
  // it went away.
  if (hadFocus && (b.turn || !hasFocus(b.el))) {
    keepFocus(b.el, ['button.way-A', `.pt.target${CHOICE}`, 'button.stop', `.pt${CHOICE}`], '.pt.picked');
  }
}

// scene gathers what draw shows: the board, whose choices are open, and
// what to mark.
function scene(b) {
  const { turn, choice, anim, view } = b;
  const frame = anim ? anim.frames[anim.k] : null;
  const mine = !anim && !b.sent && b.legal.length > 0;
  const building = !!turn && turn.steps.length > 0;
  const marks = parseMarks(b.ctx.marks, isPoint);
  // Diagrams show the last turn only when their text speaks of it.
  const showLast = !turn && !anim && (!!b.ctx.send || marks.last);
  const ways = new Map();
  for (const w of choice ? choice.ways : []) for (const c of w.took) ways.set(c, w.how);
  return {
    frame, mine, building, marks, showLast, ways,
    board: frame ? frame.board : turn ? turn.board.join('') : view.board,
    movable: mine && !building ? starts(b) : new Set(),
    targets: mine && turn && !choice ? nextSteps(b.legal, prefixOf(turn)) : new Map(),
    visited: new Set(turn ? pathOf(turn) : []),
    at: turn ? (turn.steps.length ? turn.steps.at(-1).to : turn.from) : -1,
    lastTaken: new Set(showLast ? view.captured.map(indexOf) : []),
    crosses: new Set([...marks.crosses].map(indexOf)),
    marked: new Set([...marks.cells].map(indexOf)),
  };
}

// drawPoint sets the classes, letter and accessible name of point i.
function drawPoint(b, s, pt, i) {
  const { t, turn, choice } = b;
  const c = s.board[i];
  const colour = c === 'W' ? 'white' : c === 'B' ? 'black' : '';
  const cls = ['pt'];
  if (colour) cls.push(colour);
  let extra = '';
  const state = (name, text) => {
    cls.push(name);
    extra = text;
  };
  if (s.frame && i === s.frame.at) cls.push('moving');
  if (turn && i === s.at && !s.frame) state('picked', t('fanorona.state_picked'));
  if (s.building && s.visited.has(i) && i !== s.at) state('visited', t('fanorona.state_visited'));
  if (s.movable.has(i) && i !== s.at) state('movable', t('fanorona.state_movable'));
  if (s.targets.has(i)) state('target', targetText(b, i));
  if (s.ways.has(i)) state('way', t(s.ways.get(i) === 'A' ? 'fanorona.state_take_approach' : 'fanorona.state_take_withdrawal'));
  if (choice && i === choice.to) cls.push('target', 'chosen');
  if (s.lastTaken.has(i) && !colour) state('taken', t('fanorona.state_taken'));
  if (s.marked.has(i)) cls.push('marked');
  if (s.crosses.has(i)) cls.push('doomed');
  const choosable = s.movable.has(i) || s.targets.has(i) || s.ways.has(i) || (turn && i === turn.from && !s.building);
  if (choosable) cls.push('choosable');
  pt.g.setAttribute('class', cls.join(' '));
  pt.letter.textContent = s.ways.has(i) ? t(s.ways.get(i) === 'A' ? 'fanorona.letter_approach' : 'fanorona.letter_withdrawal') : '';
  let label = t(colour ? `fanorona.point_${colour}` : 'fanorona.point_empty', { point: nameOf(i) });
  if (extra) label += ', ' + extra;
  pt.g.setAttribute('aria-label', label);
  setChoosable(pt.g, !!choosable);
}

function targetText(b, i) {
  const ways = b.targets.get(i);
  if (ways.size > 1) return b.t('fanorona.state_target_both');
  const [how] = ways;
  if (!how) return b.t('fanorona.state_target');
  return b.t('fanorona.state_target_takes', { n: taken(b.view, stepText(b, i, how)).length });
}

// drawTrail draws paths: the turn being built or replayed, else the last
// turn played; and on diagrams the arrows the text points at.
function drawTrail(b, s) {
  b.trail.replaceChildren();
  let path = null;
  let kind = 'last';
  if (s.frame) {
    path = s.frame.path;
    kind = 'replay';
  } else if (b.turn) {
    path = pathOf(b.turn);
    kind = 'now';
  } else if (s.showLast && b.view.last_turn) {
    path = pathOf(parseTurn(b.view.last_turn));
  }
  if (path && path.length > 1) {
    b.trail.append(polyline(path, `path ${kind}`, PIECE + 0.6));
    if (kind === 'last') b.trail.append(svg('circle', { class: 'origin', cx: xy(path[0])[0], cy: xy(path[0])[1], r: 1.4 }));
  }
  for (const [from, to, forbidden] of s.marks.arrows) {
    const [p, q] = [indexOf(from), indexOf(to)];
    const gap = s.board[q] === '.' ? 1.2 : PIECE + 0.6;
    b.trail.append(forbidden ? blocked(p, q) : polyline([p, q], 'arrow', gap));
  }
}

// drawControls puts up the hint and the buttons for what the player may do
// now.
function drawControls(b, mine, building) {
  if (!b.controls) return;
  const { t, choice, turn } = b;
  let text = '';
  let actions = [];
  if (mine && choice) {
    text = t('fanorona.hint_choice');
    actions = choiceActions(b);
  } else if (mine && building) {
    text = t('fanorona.hint_chain');
  } else if (mine && turn) {
    text = t('fanorona.hint_target');
  } else if (mine) {
    text = b.legal.some((l) => /[AW]/.test(l)) ? t('fanorona.hint_capture') : t('fanorona.hint_pick');
  }
  if (mine && building) actions.push([t('fanorona.stop'), 'stop primary', () => stop(b)]);
  if (mine && (building || choice)) actions.push([t('fanorona.restart'), 'restart', () => restart(b)]);
  const key = text + '|' + actions.map((a) => a[0]).join('|');
  if (key === b.controlsKey) return;
  b.controlsKey = key;
  b.controls.hidden = !text;
  b.hint.textContent = text;
  b.buttons.replaceChildren(...actions.map(([label, cls, fn]) => button(label, cls, fn)));
}

// choiceActions are the buttons for taking one line or the other.
function choiceActions(b) {
  return b.choice.ways.map((w) => {
    const key = w.how === 'A' ? 'fanorona.choose_approach' : 'fanorona.choose_withdrawal';
    const label = b.t(key, { n: w.took.length, points: w.took.map(nameOf).join(' ') });
    return [label, 'way-' + w.how, () => step(b, b.choice.to, w.how)];
  });
}

// threaten crosses out what a landing point would capture while the
// pointer or the focus is on it.
function threaten(b, i) {
  const show = new Set();
  if (i >= 0 && b.targets.has(i) && b.turn) {
    for (const how of b.targets.get(i)) for (const c of taken(b.view, stepText(b, i, how))) show.add(c);
  }
  b.points.forEach((pt, k) => pt.g.classList.toggle('threat', show.has(k)));
}

// animate replays the turn that led from the view before to the view
// now, step by step, unless it cannot be explained or motion is unwanted.
function animate(b, before, after) {
  stopAnimation(b);
  if (still() || document.hidden || !after.last_turn) return;
  const frames = replay(before, after.last_turn);
  if (!frames || frames.at(-1).board !== after.board) return;
  const pace = Math.max(SLIDE_MS, Math.min(STEP_MS, REPLAY_MS / (frames.length - 1)));
  b.anim = { frames, k: 0, timer: 0, pace };
  b.root.classList.add('replaying');
  b.anim.timer = setTimeout(() => advance(b), pace / 2);
}

function advance(b) {
  const anim = b.anim;
  anim.k++;
  const frame = anim.frames[anim.k];
  draw(b);
  slide(b, frame.from, frame.at);
  fade(b, frame.took, frame.board[frame.at] === 'W' ? 'B' : 'W');
  const next = anim.k + 1 < anim.frames.length ? advance : finishAnimation;
  anim.timer = setTimeout(() => next(b), anim.pace);
}

function stopAnimation(b) {
  if (b.anim) clearTimeout(b.anim.timer);
  b.anim = null;
  b.root.classList.remove('replaying');
}

function finishAnimation(b) {
  stopAnimation(b);
  draw(b);
}

// slide lets the piece now on q glide in from p.
function slide(b, p, q) {
  if (p === undefined) return;
  const [x1, y1] = xy(p);
  const [x2, y2] = xy(q);
  glide(b.points[q].piece, x1 - x2, y1 - y2, SLIDE_MS);
}

// fade shows captured pieces of colour c vanishing where they stood.
function fade(b, list, c) {
  for (const i of list) ghost(b.ghosts, `ghost ${c === 'W' ? 'white' : 'black'}`, ...xy(i), PIECE, GHOST_MS);
}

// polyline draws a path with an arrowhead that stops gap short of its last
// point, so that a piece there hides none of it.
function polyline(path, cls, gap) {
  const pts = path.map(xy);
  const { base, head } = arrowHead(pts.at(-2), pts.at(-1), gap, 2.6, 1.6);
  const g = svg('g', { class: cls });
  g.append(
    svg('polyline', { points: pointList([...pts.slice(0, -1), base]) }),
    svg('polygon', { class: 'head', points: head }));
  return g;
}

// blocked draws a step the rules forbid: a dashed line ending in a bar,
// shifted to one side so that it does not hide a path drawn the other way.
function blocked(a, b) {
  const [x1, y1] = xy(a);
  const [x2, y2] = xy(b);
  const len = Math.hypot(x2 - x1, y2 - y1);
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const ox = -uy * 1.6;
  const oy = ux * 1.6;
  const sx = x1 + ux * (PIECE + 0.4) + ox;
  const sy = y1 + uy * (PIECE + 0.4) + oy;
  const tx = x2 - ux * 1.2 + ox;
  const ty = y2 - uy * 1.2 + oy;
  const g = svg('g', { class: 'arrow forbidden' });
  g.append(
    svg('path', { class: 'shaft', d: `M${sx.toFixed(2)} ${sy.toFixed(2)}L${tx.toFixed(2)} ${ty.toFixed(2)}` }),
    svg('path', { class: 'bar', d: `M${(tx - uy * 1.8).toFixed(2)} ${(ty + ux * 1.8).toFixed(2)}L${(tx + uy * 1.8).toFixed(2)} ${(ty - ux * 1.8).toFixed(2)}` }));
  return g;
}

function cross(x, y, r) {
  return `M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}`;
}

// moveLabel shows a turn in the move list with the pieces it took; a long
// chain may wrap at its dashes, but never before the count.
export function moveLabel(move, captured) {
  return captured > 0 ? `${move}\u00a0×${captured}` : move;
}

// eventText announces a turn with what it captured.
export function eventText(event, state, t) {
  const i = standing(state.events).findIndex((e) => e.seq === event.seq);
  const captured = (state.captured || [])[i] || 0;
  const colour = t('colour.' + event.seat);
  return captured > 0
    ? t('fanorona.announce_capture', { colour, move: event.move, n: captured })
    : t('announce.move', { colour, move: event.move });
}

// summary counts the pieces left and, once a draw comes near, the turns
// without a capture.
export function summary(state, t) {
  const v = state.view;
  let text = t('fanorona.pieces', { white: v.white, black: v.black });
  if (v.counter > 40) text += ' ' + t('fanorona.counter', { counter: v.counter, draw_at: v.draw_at });
  return text;
}

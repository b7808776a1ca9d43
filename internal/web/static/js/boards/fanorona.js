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
import { svg, onSlide } from './svg.js';

const FILES = 'abcdefghi';
const S = 10; // distance between neighbouring points, in drawing units
const PIECE = 3.4; // radius of a piece
const STEP_MS = 420; // time per step when a turn is replayed
const REPLAY_MS = 2600; // long chains go faster, to be over in about this time
const SLIDE_MS = 220; // time a piece takes to slide to its next point

const fileOf = (i) => i % 9;
const rankOf = (i) => Math.floor(i / 9);
const nameOf = (i) => FILES[fileOf(i)] + (rankOf(i) + 1);
const indexOf = (name) => (name.charCodeAt(1) - 49) * 9 + (name.charCodeAt(0) - 97);
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
  const t = ctx.t;
  const id = `fanorona-${++boards}`;
  const root = svg('svg', {
    class: 'board-svg fanorona', role: 'group', viewBox: '-10 -6 96 56',
    'aria-label': t('board.label', { game: t('game.fanorona.name') }),
  });
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  let controls = null;
  let hint = null;
  let buttons = null;
  if (ctx.send) {
    controls = document.createElement('div');
    controls.className = 'fanorona-controls';
    controls.hidden = true;
    hint = document.createElement('p');
    hint.className = 'fanorona-hint';
    hint.id = id + '-hint';
    hint.setAttribute('aria-live', 'polite');
    root.setAttribute('aria-describedby', hint.id);
    buttons = document.createElement('div');
    buttons.className = 'fanorona-buttons';
    controls.append(hint, buttons);
  }
  el.replaceChildren(root, ...(controls ? [controls] : []));

  const points = [];
  const trail = svg('g', { class: 'trail', 'aria-hidden': 'true' });
  const ghosts = svg('g', { class: 'ghosts', 'aria-hidden': 'true' });
  build();

  let view = null;
  let legal = [];
  let legalKey = '';
  let turn = null; // the turn being built: {from, steps, board, colour}
  let choice = null; // a landing point reached by approach or withdrawal: {to, ways}
  let sent = null; // the turn handed to ctx.send, until the server answers
  let anim = null; // the opponent's turn being replayed: {frames, k, timer, pace}
  let updates = 0;
  let targets = new Map(); // landing point -> ways, while the player chooses
  let controlsKey = '';
  let carried = null; // a piece being slid to its landing point: {turn, before}

  // A piece is carried from where it stands to where it lands, as if it
  // were clicked and then the point. While it is carried it shows as picked;
  // a slide that ends anywhere else leaves the turn as it was before the
  // press.
  onSlide(root, {
    start: carriable,
    begin: (g) => {
      if (anim) finishAnimation();
      if (!carriable(g)) return;
      const i = indexOf(g.dataset.cell);
      carried = { before: turn, turn };
      if (!turn || (turn.steps.length === 0 && turn.from !== i)) {
        turn = carried.turn = { from: i, steps: [], board: view.board.split(''), colour: view.board[i] };
        draw();
      }
    },
    over: (g) => {
      const i = g ? indexOf(g.dataset.cell) : -1;
      const ok = landable(i);
      threaten(ok ? i : -1);
      return ok;
    },
    drop: (g) => {
      const i = g ? indexOf(g.dataset.cell) : -1;
      const ok = landable(i);
      const was = carried;
      carried = null;
      threaten(-1);
      if (ok) return land(i, nextSteps(legal, prefixOf(turn)).get(i));
      // Only a turn this slide picked is put back; one the server reset
      // meanwhile is left alone.
      if (was && turn === was.turn && turn !== was.before) {
        turn = was.before;
        draw();
      }
    },
  });

  // carriable says whether the piece on g may be carried: one that can
  // begin a turn, or the one moving while a capture chain goes on.
  function carriable(g) {
    if (!ctx.send || sent || choice || legal.length === 0 || !g) return false;
    const i = indexOf(g.dataset.cell);
    return turn && turn.steps.length > 0 ? i === turn.steps.at(-1).to : starts().has(i);
  }

  // landable says whether the carried piece may land on i.
  function landable(i) {
    return i >= 0 && !!carried && turn === carried.turn && !sent && !choice && nextSteps(legal, prefixOf(turn)).has(i);
  }

  function build() {
    const bg = svg('rect', { class: 'bg', x: -5, y: -5, width: 8 * S + 10, height: 4 * S + 10, rx: 2 });
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
    const lines = svg('path', { class: 'lines', d });
    const labels = svg('g', { class: 'coords', 'aria-hidden': 'true' });
    for (let f = 0; f < 9; f++) labels.append(svg('text', { x: f * S, y: 4 * S + 8.5 }, FILES[f]));
    for (let r = 0; r < 5; r++) labels.append(svg('text', { x: -8, y: (4 - r) * S, dy: '0.35em' }, String(r + 1)));
    const grid = svg('g', { class: 'points' });
    for (let i = 0; i < 45; i++) {
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
      g.addEventListener('click', () => press(i));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          press(i);
        }
      });
      g.addEventListener('pointerenter', () => threaten(i));
      g.addEventListener('pointerleave', () => threaten(-1));
      // A tap focuses the point too; only a keyboard's focus shows threats.
      g.addEventListener('focus', () => { if (g.matches(':focus-visible')) threaten(i); });
      g.addEventListener('blur', () => threaten(-1));
      points.push({ g, piece, letter });
      grid.append(g);
    }
    root.append(bg, lines, labels, trail, grid, ghosts);
  }

  function update(state) {
    updates++;
    const v = state.view;
    const now = ctx.send ? state.legal || [] : [];
    const key = now.join(' ');
    if (view && v.ply === view.ply + 1 && v.last_turn !== sent) {
      animate(view, v);
    } else if (!view || v.ply !== view.ply) {
      stopAnimation();
    }
    if (!view || v.ply !== view.ply) {
      turn = choice = sent = null;
    } else if (key !== legalKey && !(sent && key === '')) {
      // The turn was refused, or the game changed under it: start again.
      turn = choice = sent = null;
    }
    view = v;
    legal = now;
    legalKey = key;
    // A turn waiting for the player's confirmation, perhaps typed rather
    // than clicked, is shown as played.
    const preview = ctx.send ? state.preview : null;
    if (preview && !(turn && prefixOf(turn) === preview)) {
      const frames = replay(v, preview);
      if (frames) {
        const { from, steps } = parseTurn(preview);
        turn = { from, steps, board: frames.at(-1).board.split(''), colour: v.board[from] };
        choice = null;
        sent = preview;
      }
    }
    draw();
  }

  // press handles a click, tap or key on point i.
  function press(i) {
    if (anim) finishAnimation();
    if (!ctx.send || sent || legal.length === 0) return;
    if (choice) {
      const way = choice.ways.find((w) => w.took.includes(i));
      if (way) return step(choice.to, way.how);
      // Anything else puts the question away.
      choice = null;
      return draw();
    }
    const options = turn ? nextSteps(legal, prefixOf(turn)) : new Map();
    if (options.has(i)) return land(i, options.get(i));
    if (turn && turn.steps.length > 0) return;
    if (starts().has(i) && !(turn && turn.from === i)) {
      turn = { from: i, steps: [], board: view.board.split(''), colour: view.board[i] };
    } else {
      turn = null;
    }
    draw();
  }

  // starts are the points of the pieces that can begin a legal turn.
  function starts() {
    return new Set(legal.map((l) => indexOf(l.slice(0, 2))));
  }

  // land moves the picked piece to i, or asks which line to take when the
  // step can capture both ways.
  function land(i, ways) {
    if (ways.size === 1) return step(i, [...ways][0]);
    choice = {
      to: i,
      ways: [...ways].sort().map((how) => ({ how, took: taken(view, stepText(i, how)) })),
    };
    draw();
  }

  // stepText writes the turn being built with one more step, to i.
  function stepText(i, how) {
    return prefixOf(turn) + '-' + nameOf(i) + how;
  }

  // step adds one step to the turn; the turn goes to the server as soon as
  // no legal turn continues it.
  function step(to, how) {
    const p = turn.steps.length ? turn.steps.at(-1).to : turn.from;
    const took = taken(view, stepText(to, how));
    const enemy = turn.colour === 'W' ? 'B' : 'W';
    turn.board[p] = '.';
    turn.board[to] = turn.colour;
    for (const c of took) turn.board[c] = '.';
    turn.steps.push({ to, how });
    choice = null;
    const text = prefixOf(turn);
    if (nextSteps(legal, text).size === 0) submit(text);
    else draw();
    slide(p, to);
    fade(took, enemy);
  }

  function submit(text) {
    if (!legal.includes(text)) return;
    sent = text;
    const before = updates;
    ctx.send(text);
    // A page that could not send draws nothing; then the turn starts over.
    if (updates === before) {
      sent = turn = choice = null;
      draw();
    }
  }

  function stop() {
    if (turn && turn.steps.length > 0 && !sent) submit(prefixOf(turn));
  }

  function restart() {
    if (sent) return;
    turn = choice = null;
    draw();
  }

  // draw sets every point's classes and label from the position shown: a
  // frame of a replay, the turn being built, or the server's view.
  function draw() {
    if (!view) return;
    const hadFocus = el.contains(document.activeElement);
    const frame = anim ? anim.frames[anim.k] : null;
    const board = frame ? frame.board : turn ? turn.board.join('') : view.board;
    const mine = !anim && !sent && legal.length > 0;
    const building = turn && turn.steps.length > 0;
    const movable = mine && !building ? starts() : new Set();
    targets = mine && turn && !choice ? nextSteps(legal, prefixOf(turn)) : new Map();
    const visited = new Set(turn ? [turn.from, ...turn.steps.map((s) => s.to)] : []);
    const at = turn ? (turn.steps.length ? turn.steps.at(-1).to : turn.from) : -1;
    const marks = parseMarks(ctx.marks || []);
    // Diagrams show the last turn only when their text speaks of it.
    const showLast = !turn && !anim && (ctx.send || marks.last);
    const lastTaken = new Set(showLast ? view.captured.map(indexOf) : []);
    const ways = new Map();
    for (const w of choice ? choice.ways : []) for (const c of w.took) ways.set(c, w.how);

    points.forEach((pt, i) => {
      const c = board[i];
      const colour = c === 'W' ? 'white' : c === 'B' ? 'black' : '';
      const cls = ['pt'];
      if (colour) cls.push(colour);
      let extra = '';
      if (frame && i === frame.at) cls.push('moving');
      if (turn && i === at && !frame) {
        cls.push('picked');
        extra = t('fanorona.state_picked');
      }
      if (building && visited.has(i) && i !== at) {
        cls.push('visited');
        extra = t('fanorona.state_visited');
      }
      if (movable.has(i) && i !== at) {
        cls.push('movable');
        extra = t('fanorona.state_movable');
      }
      if (targets.has(i)) {
        cls.push('target');
        extra = targetText(i);
      }
      if (ways.has(i)) {
        cls.push('way');
        extra = t(ways.get(i) === 'A' ? 'fanorona.state_take_approach' : 'fanorona.state_take_withdrawal');
      }
      if (choice && i === choice.to) cls.push('target', 'chosen');
      if (lastTaken.has(i) && !colour) {
        cls.push('taken');
        extra = t('fanorona.state_taken');
      }
      if (marks.points.has(i)) cls.push('marked');
      if (marks.crosses.has(i)) cls.push('doomed');
      const choosable = movable.has(i) || targets.has(i) || ways.has(i) || (turn && i === turn.from && !building);
      if (choosable) cls.push('choosable');
      pt.g.setAttribute('class', cls.join(' '));
      pt.letter.textContent = ways.has(i) ? t(ways.get(i) === 'A' ? 'fanorona.letter_approach' : 'fanorona.letter_withdrawal') : '';
      let label = t(colour ? `fanorona.point_${colour}` : 'fanorona.point_empty', { point: nameOf(i) });
      if (extra) label += ', ' + extra;
      pt.g.setAttribute('aria-label', label);
      pt.g.setAttribute('role', choosable ? 'button' : 'img');
      if (choosable) pt.g.setAttribute('tabindex', '0');
      else pt.g.removeAttribute('tabindex');
    });

    drawTrail(frame, marks, showLast, board);
    drawControls(mine, building);
    if (hadFocus) keepFocus();
  }

  function targetText(i) {
    const ways = targets.get(i);
    if (ways.size > 1) return t('fanorona.state_target_both');
    const [how] = ways;
    if (!how) return t('fanorona.state_target');
    return t('fanorona.state_target_takes', { n: taken(view, stepText(i, how)).length });
  }

  // drawTrail draws paths: the turn being built or replayed, else the last
  // turn played; and on diagrams the arrows the text points at.
  function drawTrail(frame, marks, showLast, board) {
    trail.replaceChildren();
    let path = null;
    let kind = 'last';
    if (frame) {
      path = frame.path;
      kind = 'replay';
    } else if (turn) {
      path = [turn.from, ...turn.steps.map((s) => s.to)];
      kind = 'now';
    } else if (showLast && view.last_turn) {
      const last = parseTurn(view.last_turn);
      path = [last.from, ...last.steps.map((s) => s.to)];
    }
    if (path && path.length > 1) {
      trail.append(polyline(path, `path ${kind}`, PIECE + 0.6));
      if (kind === 'last') trail.append(svg('circle', { class: 'origin', cx: xy(path[0])[0], cy: xy(path[0])[1], r: 1.4 }));
    }
    for (const [a, b, forbidden] of marks.arrows) {
      const gap = board[b] === '.' ? 1.2 : PIECE + 0.6;
      trail.append(forbidden ? blocked(a, b) : polyline([a, b], 'arrow', gap));
    }
  }

  function drawControls(mine, building) {
    if (!controls) return;
    let text = '';
    const actions = [];
    if (mine && choice) {
      text = t('fanorona.hint_choice');
      for (const w of choice.ways) {
        const key = w.how === 'A' ? 'fanorona.choose_approach' : 'fanorona.choose_withdrawal';
        actions.push([t(key, { n: w.took.length, points: w.took.map(nameOf).join(' ') }), 'way-' + w.how, () => step(choice.to, w.how)]);
      }
    } else if (mine && building) {
      text = t('fanorona.hint_chain');
    } else if (mine && turn) {
      text = t('fanorona.hint_target');
    } else if (mine) {
      text = legal.some((l) => /[AW]/.test(l)) ? t('fanorona.hint_capture') : t('fanorona.hint_pick');
    }
    if (mine && building) actions.push([t('fanorona.stop'), 'stop primary', stop]);
    if (mine && (building || choice)) actions.push([t('fanorona.restart'), 'restart', restart]);
    const key = text + '|' + actions.map((a) => a[0]).join('|');
    if (key === controlsKey) return;
    controlsKey = key;
    controls.hidden = !text;
    hint.textContent = text;
    buttons.replaceChildren(...actions.map(([label, cls, fn]) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = cls;
      b.textContent = label;
      b.addEventListener('click', fn);
      return b;
    }));
  }

  // keepFocus moves the keyboard focus to the next thing to choose when
  // the element that had it went away or stopped being a choice.
  function keepFocus() {
    const a = document.activeElement;
    if (a && el.contains(a) && (a.tagName === 'BUTTON' || a.getAttribute('tabindex') === '0')) return;
    for (const sel of ['button.way-A', '.pt.target[tabindex="0"]', 'button.stop', '.pt[tabindex="0"]']) {
      const next = el.querySelector(sel);
      if (next) return next.focus({ preventScroll: true });
    }
  }

  // Escape puts away the question of which line to take, or else the turn
  // being built.
  el.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || sent || !turn) return;
    if (choice) choice = null;
    else turn = null;
    draw();
  });

  // threaten crosses out what a landing point would capture while the
  // pointer or the focus is on it.
  function threaten(i) {
    const show = new Set();
    if (i >= 0 && targets.has(i) && turn) {
      for (const how of targets.get(i)) for (const c of taken(view, stepText(i, how))) show.add(c);
    }
    points.forEach((pt, k) => pt.g.classList.toggle('threat', show.has(k)));
  }

  // animate replays the turn that led from the view before to the view
  // now, step by step, unless it cannot be explained or motion is unwanted.
  function animate(before, after) {
    stopAnimation();
    if (reduceMotion.matches || document.hidden || !after.last_turn) return;
    const frames = replay(before, after.last_turn);
    if (!frames || frames.at(-1).board !== after.board) return;
    const pace = Math.max(SLIDE_MS, Math.min(STEP_MS, REPLAY_MS / (frames.length - 1)));
    anim = { frames, k: 0, timer: 0, pace };
    root.classList.add('replaying');
    anim.timer = setTimeout(advance, anim.pace / 2);
  }

  function advance() {
    anim.k++;
    const frame = anim.frames[anim.k];
    draw();
    slide(frame.from, frame.at);
    fade(frame.took, frame.board[frame.at] === 'W' ? 'B' : 'W');
    anim.timer = setTimeout(anim.k + 1 < anim.frames.length ? advance : finishAnimation, anim.pace);
  }

  function stopAnimation() {
    if (anim) clearTimeout(anim.timer);
    anim = null;
    root.classList.remove('replaying');
  }

  function finishAnimation() {
    stopAnimation();
    draw();
  }

  // slide lets the piece now on q glide in from p.
  function slide(p, q) {
    if (reduceMotion.matches || p === undefined) return;
    const [x1, y1] = xy(p);
    const [x2, y2] = xy(q);
    points[q].piece.animate(
      [{ transform: `translate(${x1 - x2}px, ${y1 - y2}px)` }, { transform: 'translate(0, 0)' }],
      { duration: SLIDE_MS, easing: 'ease-out' });
  }

  // fade shows captured pieces vanishing where they stood.
  function fade(list, c) {
    if (reduceMotion.matches) return;
    for (const i of list) {
      const [x, y] = xy(i);
      const ghost = svg('circle', { class: `ghost ${c === 'W' ? 'white' : 'black'}`, cx: x, cy: y, r: PIECE });
      ghosts.append(ghost);
      setTimeout(() => ghost.remove(), 400);
    }
  }

  return { update };
}

// parseMarks reads a diagram's marks: "e3" rings a point, "*f3" crosses out
// a piece that a step would capture, "d3-e3" draws the step as an arrow,
// "!e3-f3" a step the rules forbid, and "last" shows the last turn.
function parseMarks(list) {
  const out = { points: new Set(), crosses: new Set(), arrows: [], last: false };
  for (const m of list) {
    if (m === 'last') {
      out.last = true;
      continue;
    }
    const forbidden = m.startsWith('!');
    const body = m.replace(/^[!*]/, '');
    const names = body.split('-');
    if (!names.every((n) => /^[a-i][1-5]$/.test(n))) continue;
    if (names.length > 1) {
      for (let k = 1; k < names.length; k++) out.arrows.push([indexOf(names[k - 1]), indexOf(names[k]), forbidden]);
    } else if (m.startsWith('*')) {
      out.crosses.add(indexOf(body));
    } else {
      out.points.add(indexOf(body));
    }
  }
  return out;
}

// polyline draws a path with an arrowhead that stops gap short of its last
// point, so that a piece there hides none of it.
function polyline(path, cls, gap) {
  const pts = path.map(xy);
  const [x1, y1] = pts.at(-2);
  const [x2, y2] = pts.at(-1);
  const len = Math.hypot(x2 - x1, y2 - y1);
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const tipX = x2 - ux * gap;
  const tipY = y2 - uy * gap;
  const baseX = tipX - ux * 2.6;
  const baseY = tipY - uy * 2.6;
  const g = svg('g', { class: cls });
  g.append(
    svg('polyline', { points: [...pts.slice(0, -1), [baseX, baseY]].map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ') }),
    svg('polygon', {
      class: 'head',
      points: [[tipX, tipY], [baseX - uy * 1.6, baseY + ux * 1.6], [baseX + uy * 1.6, baseY - ux * 1.6]]
        .map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' '),
    }));
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
  const n = state.events.filter((e) => e.kind === 'move' && e.seq <= event.seq).length;
  const captured = (state.captured || [])[n - 1] || 0;
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

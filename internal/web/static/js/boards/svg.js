// Drawing helpers the board modules share: SVG elements, accessible cell
// names, arrows, a diagram's marks, and animation, held back when the
// viewer wants less motion. The marks and the animation are here rather
// than in scripts of their own, which a game page would load as more
// files, each with its headers.
const NS = 'http://www.w3.org/2000/svg';

// svg makes an SVG element with attributes and optional text.
export function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// cellLabel gives a cell its accessible name ("e5, white stone") and marks
// the cells a player may choose as buttons.
export function cellLabel(el, t, name, colour, choosable) {
  const key = colour ? `board.cell_${colour}` : 'board.cell_empty';
  el.setAttribute('aria-label', t(key, { cell: name }));
  el.setAttribute('role', choosable ? 'button' : 'img');
}

// arrowHead works out an arrow from a to b, points [x, y], whose tip stops
// gap short of b: where its shaft ends (base) and the points of its head,
// length long and 2 × half wide, ready for a polygon.
export function arrowHead(a, b, gap, length, half) {
  const [x1, y1] = a;
  const [x2, y2] = b;
  const len = Math.hypot(x2 - x1, y2 - y1);
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const tip = [x2 - ux * gap, y2 - uy * gap];
  const base = [tip[0] - ux * length, tip[1] - uy * length];
  const head = [tip, [base[0] - uy * half, base[1] + ux * half], [base[0] + uy * half, base[1] - ux * half]];
  return { base, head: pointList(head) };
}

// pointList writes points [x, y] as an SVG points attribute.
export function pointList(points) {
  return points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ');
}

// Marks on a diagram, given as words in its data-marks: "e3" marks a cell,
// "*f3" crosses out a piece that a move would take, "d3-e3" draws a move as
// an arrow, "!e3-f3" a move the rules forbid, and "last" shows the last
// move. Each board draws the kinds it knows.

// parseMarks reads the words of list; isCell says which names are cells of
// the board, so that a word naming none is passed over.
export function parseMarks(list, isCell) {
  const out = { cells: new Set(), crosses: new Set(), arrows: [], last: false };
  for (const m of list || []) {
    if (m === 'last') {
      out.last = true;
      continue;
    }
    const forbidden = m.startsWith('!');
    const body = m.replace(/^[!*]/, '');
    const names = body.split('-');
    if (!names.every(isCell)) continue;
    if (names.length > 1) {
      for (let k = 1; k < names.length; k++) out.arrows.push([names[k - 1], names[k], forbidden]);
    } else if (m.startsWith('*')) {
      out.crosses.add(body);
    } else {
      out.cells.add(body);
    }
  }
  return out;
}

// Animation on a board, always subject to the viewer's wish for reduced
// motion.
const reduce = window.matchMedia('(prefers-reduced-motion: reduce)');

// still says whether the viewer asked for reduced motion.
export function still() {
  return reduce.matches;
}

// glide lets el slide in to where it stands from dx, dy away.
export function glide(el, dx, dy, ms) {
  if (still()) return;
  el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0, 0)' }], { duration: ms, easing: 'ease-out' });
}

// ghost shows a circle of class cls at x, y in layer for ms, for a piece
// that vanishes there.
export function ghost(layer, cls, x, y, r, ms) {
  if (still()) return;
  const el = svg('circle', { class: cls, cx: x, cy: y, r });
  layer.append(el);
  setTimeout(() => el.remove(), ms);
}

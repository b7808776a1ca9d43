// Drawing helpers the board modules share: SVG elements, accessible cell
// names, arrows.
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

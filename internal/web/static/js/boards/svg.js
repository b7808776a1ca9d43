// Small helpers the board modules share.
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

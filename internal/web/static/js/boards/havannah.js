// Havannah's board: a hexagon of hexagonal cells, drawn from the server's
// view {size, stones, last, winning, ...}. Row r (letter a, b, ...) and
// column c (number 1, 2, ...) follow the engine's notation: cell (r, c) is
// on the board when |r - c| <= size - 1, and the stones string lists the
// cells in row-major order.
import { svg, cellLabel, parseMarks } from './svg.js';
import { onSlide, onChoose, focusOn, setChoosable } from './choose.js';

const R = 10; // cell radius in drawing units
const W = Math.sqrt(3) * R; // distance between neighbours in a row
const H = 1.5 * R; // distance between rows

function centre(r, c) {
  return [W * (c - r / 2), H * r];
}

function hexagon(x, y) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 180 * (60 * k - 90);
    points.push(`${(x + R * Math.cos(a)).toFixed(2)},${(y + R * Math.sin(a)).toFixed(2)}`);
  }
  return points.join(' ');
}

// cellsOf lists the cells of a board of side n in the engine's order.
export function cellsOf(n) {
  const cells = [];
  for (let r = 0; r <= 2 * n - 2; r++) {
    for (let c = 0; c <= 2 * n - 2; c++) {
      if (Math.abs(r - c) <= n - 1) {
        cells.push({ r, c, name: String.fromCharCode(97 + r) + (c + 1) });
      }
    }
  }
  return cells;
}

export function create(el, ctx) {
  const root = svg('svg', { class: 'board-svg havannah', role: 'group' });
  el.replaceChildren(root);
  let size = 0;
  let cells = [];
  let legal = new Set();
  const zoom = ctx.send && zoomer(el, root, ctx.t, () => legal.size > 0);

  // Press, slide and release: the cell under the pointer is marked while it
  // moves and chosen where it lets go, so a finger need not hide its target.
  // On the zoomed board a finger pans instead.
  const playable = (g) => g && legal.has(g.dataset.cell);
  onSlide(root, {
    start: () => !!ctx.send && legal.size > 0 && !zoom.on(),
    over: playable,
    drop: (g) => {
      if (playable(g)) ctx.send(g.dataset.cell);
    },
  });

  function build(n) {
    size = n;
    if (zoom) zoom.end();
    root.replaceChildren();
    cells = cellsOf(n);
    const xs = [];
    const ys = [];
    const labels = svg('g', { class: 'coords', 'aria-hidden': 'true' });
    for (let r = 0; r <= 2 * n - 2; r++) {
      const [x, y] = centre(r, Math.max(0, r - (n - 1)) - 1);
      labels.append(svg('text', { x, y, dy: '0.35em' }, String.fromCharCode(97 + r)));
      xs.push(x);
      ys.push(y);
    }
    for (let c = 0; c <= 2 * n - 2; c++) {
      const [x, y] = centre(Math.max(0, c - (n - 1)) - 1, c);
      labels.append(svg('text', { x, y, dy: '0.35em' }, String(c + 1)));
      xs.push(x);
      ys.push(y);
    }
    const grid = svg('g', { class: 'cells' });
    for (const cell of cells) {
      const [x, y] = centre(cell.r, cell.c);
      xs.push(x - R, x + R);
      ys.push(y - R, y + R);
      cell.g = svg('g', { class: 'cell', 'data-cell': cell.name });
      cell.g.append(svg('polygon', { points: hexagon(x, y) }));
      cell.stone = svg('circle', { class: 'stone', cx: x, cy: y, r: R * 0.72 });
      cell.mark = svg('circle', { class: 'mark', cx: x, cy: y, r: R * 0.22 });
      cell.win = svg('polygon', { class: 'win-mark', points: star(x, y) });
      cell.g.append(cell.stone, cell.win, cell.mark);
      onChoose(cell.g, (e) => {
        if (e && zoom && zoom.tap(e)) return;
        if (legal.has(cell.name) && ctx.send) ctx.send(cell.name);
        else if (ctx.send) ctx.refused?.(cell.name);
      });
      grid.append(cell.g);
    }
    root.append(grid, labels);
    const pad = R * 0.6;
    const minX = Math.min(...xs) - pad;
    const minY = Math.min(...ys) - pad;
    root.setAttribute('viewBox', `${minX.toFixed(1)} ${minY.toFixed(1)} ${(Math.max(...xs) - minX + pad).toFixed(1)} ${(Math.max(...ys) - minY + pad).toFixed(1)}`);
    root.setAttribute('aria-label', ctx.t('board.label', { game: ctx.t('game.havannah.name') }));
  }

  function update(state) {
    const view = state.view;
    if (view.size !== size) build(view.size);
    legal = new Set(ctx.send ? state.legal || [] : []);
    // The zoom lasts while the player has a cell to choose, or one chosen
    // to confirm.
    if (zoom && !legal.size && !state.preview) zoom.end();
    const winning = new Set(view.winning || []);
    const marks = parseMarks(ctx.marks, (name) => cells.some((c) => c.name === name)).cells;
    cells.forEach((cell, i) => {
      const stone = view.stones[i];
      const colour = stone === 'w' ? 'white' : stone === 'b' ? 'black' : '';
      const preview = state.preview === cell.name ? `preview-${state.to_move}` : '';
      cell.g.setAttribute('class', ['cell', colour, preview,
        cell.name === view.last ? 'last' : '',
        winning.has(cell.name) ? 'win' : '',
        marks.has(cell.name) ? 'marked' : '',
        legal.has(cell.name) ? 'legal' : ''].filter(Boolean).join(' '));
      cellLabel(cell.g, ctx.t, cell.name, colour, legal.has(cell.name));
      setChoosable(cell.g, legal.has(cell.name));
    });
  }

  return { update, cells: () => cells };
}

// A finger's target should be 24 px across at least (WCAG 2.5.8), and a
// big board on a phone draws its cells smaller (a side of 10 under 18 px
// on a screen 360 px wide). There a finger's first tap zooms in on where
// it landed, at least twice, within the board's frame, which keeps its
// place on the page and pans; a tap on a cell of the zoomed board chooses
// it. A tap beside the board, the button back to the whole board, or
// Escape on the board zooms out, and so does the move. A mouse, the keys
// and a screen reader (whose click comes without a finger's press)
// choose at once, as they always did.
const TARGET = 24; // px
const ZOOMED = 36; // px a cell is across at least, zoomed in

function zoomer(el, root, t, playing) {
  const out = document.createElement('button');
  out.type = 'button';
  out.className = 'zoom-out';
  out.textContent = t('board.zoom_out');
  let finger = false; // the last press on the board was a finger's
  let width = 0; // of the window, zoomed in: turned, the board is laid out anew
  root.addEventListener('pointerdown', (e) => { finger = e.pointerType === 'touch'; });
  root.addEventListener('click', (e) => { if (!e.target.closest('[data-cell]')) tap(e); });
  addEventListener('pointerdown', (e) => { if (!el.contains(e.target)) end(); }, true);
  addEventListener('resize', () => { if (innerWidth !== width) end(); });
  el.addEventListener('keydown', (e) => { if (e.key === 'Escape') end(); });
  out.addEventListener('click', end);

  // tap zooms in on click e if it is a finger's first on cells too small
  // for it, and says whether it did.
  function tap(e) {
    const touched = finger;
    finger = false;
    const cell = root.querySelector('.cell polygon').getBoundingClientRect().width;
    if (width || !touched || !playing() || cell >= TARGET) return false;
    width = innerWidth;
    // The point tapped, in the drawing's units, goes to the frame's middle
    // as near as its edges allow, the board turned round or not.
    const at = new DOMPoint(e.clientX, e.clientY).matrixTransform(root.getScreenCTM().inverse());
    const scale = Math.max(2, ZOOMED / cell) * cell / W;
    const box = root.viewBox.baseVal;
    el.style.height = `${root.getBoundingClientRect().height}px`;
    root.style.width = `${box.width * scale}px`;
    root.style.height = `${box.height * scale}px`;
    el.classList.add('zoomed');
    el.append(out);
    const to = at.matrixTransform(root.getScreenCTM());
    const frame = el.getBoundingClientRect();
    el.scrollLeft += to.x - frame.left - el.clientWidth / 2;
    el.scrollTop += to.y - frame.top - el.clientHeight / 2;
    return true;
  }

  // end shows the whole board again; the focus on its button goes back to
  // the board.
  function end() {
    if (!width) return;
    width = 0;
    const back = out.contains(document.activeElement);
    out.remove();
    el.classList.remove('zoomed');
    el.style.height = root.style.width = root.style.height = '';
    if (back) focusOn(root.querySelector('[tabindex="0"]') ?? root);
  }

  return { tap, end, on: () => width > 0 };
}

// star is the shape that marks a winning stone, so it does not rely on
// colour alone.
function star(x, y) {
  const points = [];
  for (let k = 0; k < 10; k++) {
    const a = Math.PI / 5 * k - Math.PI / 2;
    const rr = k % 2 === 0 ? R * 0.5 : R * 0.22;
    points.push(`${(x + rr * Math.cos(a)).toFixed(2)},${(y + rr * Math.sin(a)).toFixed(2)}`);
  }
  return points.join(' ');
}

// Havannah's board: a hexagon of hexagonal cells, drawn from the server's
// view {size, stones, last, winning, ...}. Row r (letter a, b, ...) and
// column c (number 1, 2, ...) follow the engine's notation: cell (r, c) is
// on the board when |r - c| <= size - 1, and the stones string lists the
// cells in row-major order.
import { svg, cellLabel, parseMarks } from './svg.js';
import { onSlide, onChoose } from './pointer.js';
import { setChoosable } from './focus.js';

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

  // Press, slide and release: the cell under the pointer is marked while it
  // moves and chosen where it lets go, so a finger need not hide its target.
  const playable = (g) => g && legal.has(g.dataset.cell);
  onSlide(root, {
    start: () => !!ctx.send && legal.size > 0,
    over: playable,
    drop: (g) => {
      if (playable(g)) ctx.send(g.dataset.cell);
    },
  });

  function build(n) {
    size = n;
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
      onChoose(cell.g, () => {
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

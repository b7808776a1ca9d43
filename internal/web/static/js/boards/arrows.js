// The arrow keys on a board, for everyone on the game page: a player goes
// between what may be chosen; a watcher, or a player with nothing to
// choose now, goes over every cell, to look at the position one cell at a
// time and hear what is on it.
import { t } from '../i18n.js';
import { BOARD, CHOICE } from './choose.js';

const KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);

// arrowKeys lets the arrow keys move the focus from a cell of root (a
// choice or not, such as the one just played) or from the board itself to
// a cell that may be chosen, as the board is seen (turned round or not), so
// that a board of a hundred cells is not a hundred presses of Tab. The same
// for hexagons, stacks and points.
//
// The choices are taken in the rows they are seen in: Left and Right go
// along a row, over the cells that cannot be chosen, and on to the end of
// the row before or the start of the row after, so that every choice can
// be reached; Up and Down go to the nearest choice of the nearest row above
// or below that has one (on hexagons a neighbour, not a cell two rows off).
// With nothing to choose, every cell counts as a choice here.
//
// watching says that the viewer has no seat: the board tells them that
// they cannot play.
//
// With its keys the board is a toolbar. A screen reader in browse mode
// keeps the arrow keys for reading the page, and hands them to the page
// by itself only while the focus is in a widget known to take them (a
// toolbar, a grid's cell, a list's item), not on a button or a picture
// in a group: tabbing onto the board then puts it in focus mode, and
// tabbing away back in browse mode. A toolbar leaves each cell what it
// is (a button to choose, else a picture) with its name; a grid would
// count rows and columns that hexagons and Fanorona's points do not
// stand in.
export function arrowKeys(root, watching) {
  const board = root.querySelector('svg[role="group"]'); // not the server's picture
  if (!board) return;
  board.setAttribute('role', 'toolbar');
  // Said when the focus enters the board, where the keys are not seen.
  board.setAttribute('aria-description', t(watching ? 'board.keys_watch' : 'board.keys'));
  // Until a cell is the board's stop of Tab (choose.js), the board itself
  // is: with nothing to choose, a page that was never on the board has
  // no cell to stop at, and the board must still be reached.
  if (!board.querySelector('[tabindex="0"]')) board.setAttribute('tabindex', '0');
  root.addEventListener('keydown', (e) => {
    const from = e.target.closest?.(`[data-cell], ${BOARD}`);
    if (!KEYS.has(e.key) || !from || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault(); // at the edge too: the page does not scroll instead
    let choices = [...root.querySelectorAll(CHOICE)];
    if (!choices.length) choices = [...root.querySelectorAll('[data-cell]')];
    // From the board itself, every key goes to its first choice.
    const to = from.matches('[data-cell]') ? next(e.key, from, choices) : choices[0];
    if (!to) return;
    // A cell that cannot be chosen takes the focus only while it has it
    // (choose.js takes its tabindex away once it has left).
    if (!to.hasAttribute('tabindex')) to.setAttribute('tabindex', '-1');
    to.focus();
  });
}

// next is the choice the arrow key goes to from cell from, or nothing at
// the board's edge.
function next(key, from, choices) {
  const rows = inRows(from, choices.filter((c) => c !== from));
  const r = rows.findIndex((row) => row.some((c) => c.el === from));
  const row = rows[r];
  const k = row.findIndex((c) => c.el === from);
  switch (key) {
    case 'ArrowRight': return (row[k + 1] ?? rows[r + 1]?.[0])?.el;
    case 'ArrowLeft': return (row[k - 1] ?? rows[r - 1]?.at(-1))?.el;
    case 'ArrowDown': return nearestIn(rows[r + 1] ?? [], row[k].x);
    case 'ArrowUp': return nearestIn(rows[r - 1] ?? [], row[k].x);
  }
}

// nearestIn is the cell of row nearest to x across the screen, the left
// one of two as near (on hexagons the next row is half a cell aside).
function nearestIn(row, x) {
  let best = null;
  for (const c of row) if (!best || Math.abs(c.x - x) < Math.abs(best.x - x) - 0.5) best = c;
  return best?.el;
}

// inRows sorts from and choices into rows as seen, top to bottom, each
// left to right; cells of a row lie within a quarter of a cell's height.
function inRows(from, choices) {
  const near = from.getBoundingClientRect().height / 4;
  const cells = [from, ...choices].map((el) => ({ el, ...middle(el) })).sort((a, b) => a.y - b.y);
  const rows = [];
  for (const c of cells) {
    const row = rows.at(-1);
    if (row && c.y - row[0].y < near) row.push(c);
    else rows.push([c]);
  }
  for (const row of rows) row.sort((a, b) => a.x - b.x);
  return rows;
}

function middle(el) {
  const r = el.getBoundingClientRect();
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

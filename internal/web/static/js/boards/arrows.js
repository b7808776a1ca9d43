// The arrow keys on a board, for a player: a watcher has nothing to
// choose, and their page never loads this.
import { t } from '../i18n.js';
import { CHOICE } from './focus.js';

// ARROWS are the arrow keys' directions on the screen.
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// arrowKeys lets the arrow keys move the focus from a cell of root to the
// nearest cell that may be chosen in that direction, as the board is seen
// (turned round or not), so that a board of a hundred cells is not a
// hundred presses of Tab. The same for hexagons, stacks and points.
export function arrowKeys(root) {
  // Said when the focus enters the board, where the keys are not seen.
  root.querySelector('svg[role="group"]')?.setAttribute('aria-description', t('board.keys'));
  root.addEventListener('keydown', (e) => {
    const dir = ARROWS[e.key];
    const from = e.target.closest?.('[data-cell]');
    if (!dir || !from || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const at = middle(from);
    let best = null;
    let bestScore = Infinity;
    for (const el of root.querySelectorAll(CHOICE)) {
      const p = middle(el);
      const along = (p.x - at.x) * dir[0] + (p.y - at.y) * dir[1];
      const across = Math.abs((p.x - at.x) * dir[1] - (p.y - at.y) * dir[0]);
      // Ahead, less than 60° off the arrow: on hexagons Left keeps to
      // the row, and Down goes to a neighbour in the next row, not
      // straight down two rows.
      if (el === from || along < 1 || across > 1.5 * along) continue;
      const score = along + across;
      if (score < bestScore) {
        best = el;
        bestScore = score;
      }
    }
    e.preventDefault(); // at the edge too: the page does not scroll instead
    best?.focus();
  });
}

function middle(el) {
  const r = el.getBoundingClientRect();
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

// Animation on a board, always subject to the viewer's wish for reduced
// motion.
import { svg } from './svg.js';

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

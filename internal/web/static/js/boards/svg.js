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

// onSlide lets a finger or a mouse press on the board, slide and let go, so
// that a finger need not hide its target and a piece can be carried to its
// landing place. A press and release on one cell is left to the cell's
// click, so that it behaves exactly like one. The board decides everything
// through its hooks; el is the element with data-cell under the pointer, or
// null:
//
//   start(el)  whether a press here may begin a slide
//   begin(el)  the pointer has left the cell it pressed (el, the pressed one)
//   over(el)   whether to mark el as where the slide would end
//   drop(el)   the pointer let go over el; null when the slide was cancelled
export function onSlide(root, { start, begin = () => {}, over, drop }) {
  let aim = null; // {id, start, moved}
  let swallow = null; // the pointer whose slide has ended, until its click

  const cellAt = (e) => {
    const el = document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-cell]');
    return el && root.contains(el) ? el : null;
  };
  const mark = (el) => {
    for (const old of root.querySelectorAll('.aimed')) if (old !== el) old.classList.remove('aimed');
    if (el) el.classList.add('aimed');
  };

  // The pointer is followed through the window: a mouse may leave the
  // board and let go elsewhere, and the board must still hear of it.
  const move = (e) => {
    if (e.pointerId !== aim.id) return;
    const el = cellAt(e);
    if (!aim.moved && el !== aim.start) {
      aim.moved = true;
      begin(aim.start);
    }
    if (aim.moved) mark(el && over(el) ? el : null);
  };
  const end = (e) => {
    if (e.pointerId !== aim.id) return;
    const { moved } = aim;
    stop();
    if (!moved) return;
    if (e.type === 'pointerup') {
      swallow = e.pointerId;
      drop(cellAt(e));
    } else {
      drop(null);
    }
  };
  const stop = () => {
    aim = null;
    mark(null);
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
  };

  root.addEventListener('pointerdown', (e) => {
    swallow = null;
    if (!e.isPrimary || e.button !== 0) return;
    if (aim) {
      // A release the window never heard of; that slide is over.
      const { moved } = aim;
      stop();
      if (moved) drop(null);
    }
    const el = cellAt(e);
    if (!start(el)) return;
    aim = { id: e.pointerId, start: el, moved: false };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  });
  // touch-action keeps the page still, yet the browser may take a quick
  // slide for a fling and spend the next tap on stopping it, unless the
  // page keeps the slide's moves to itself. A tap, which barely moves,
  // still ends in its click.
  root.addEventListener('touchmove', (e) => {
    if (aim && e.cancelable) e.preventDefault();
  }, { passive: false });
  // The click that a browser may send after a slide is not a second
  // choice. A click from a keyboard or a screen reader has no pointer of
  // that number, and every real press starts with a pointerdown.
  root.addEventListener('click', (e) => {
    if (swallow === null || (e.pointerId !== undefined && e.pointerId !== swallow)) return;
    swallow = null;
    e.stopPropagation();
  }, true);
}

// Hit-testing and choosing, the same on every board: a cell is an element
// with data-cell, chosen by a click, a tap, Enter or Space, or by sliding a
// finger or a mouse onto it.

// cellAt is the cell of root under the pointer of event e, or null.
export function cellAt(root, e) {
  const el = document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-cell]');
  return el && root.contains(el) ? el : null;
}

// onChoose calls choose when el is clicked or tapped, or pressed with Enter
// or Space while it has the focus.
export function onChoose(el, choose) {
  el.addEventListener('click', choose);
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose();
    }
  });
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

  const mark = (el) => {
    for (const old of root.querySelectorAll('.aimed')) if (old !== el) old.classList.remove('aimed');
    if (el) el.classList.add('aimed');
  };

  // The pointer is followed through the window: a mouse may leave the
  // board and let go elsewhere, and the board must still hear of it.
  const move = (e) => {
    if (e.pointerId !== aim.id) return;
    const el = cellAt(root, e);
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
      drop(cellAt(root, e));
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
    const el = cellAt(root, e);
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

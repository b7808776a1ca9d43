// Choosing a cell, the same on every board: with a pointer (a click, a
// tap, or sliding a finger or a mouse onto it) or with the keyboard (Enter
// or Space on the cell that has the focus, and which cells take it). One
// script rather than two: a game page loads every file of its board, each
// with its headers.

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

// Keyboard focus on a board: which cells take it, and where it goes when
// the cell that had it stops being a choice.

// setChoosable makes el a button that takes the focus when a player may
// choose it, and a picture outside it otherwise.
//
// A board is one stop of Tab, not a stop per cell (a hundred presses to
// get past it): one of its elements is in the tab order, the arrow keys go
// between its choices (arrows.js), and the stop follows the focus. A cell
// that has the focus keeps it when it stops being a choice (the one just
// played), so that the focus neither falls back to the top of the page nor
// jumps away while the friend's move is read out.
export function setChoosable(el, choosable) {
  el.setAttribute('role', choosable ? 'button' : 'img');
  const kept = el.getAttribute('tabindex') === '0' || document.activeElement === el;
  if (choosable && !kept) el.setAttribute('tabindex', '-1');
  else if (!choosable && !kept) el.removeAttribute('tabindex');
  const board = el.closest(BOARD);
  if (board) roveLater(board);
}

// CHOICE is a cell, stack or point a player may choose now.
export const CHOICE = '[data-cell][role="button"]';

// BOARD is a board's own drawing: a group of cells, a toolbar once its
// arrow keys work (arrows.js).
export const BOARD = '.board-svg';

const due = new WeakSet(); // boards whose stop is to be chosen again

// The stop follows the focus into a board, and is chosen again when the
// focus leaves it for another element (not when the window loses it: the
// focus comes back to where it was). Listened to on the document: a
// listener for focus on an SVG element makes Chromium put that element in
// the order of Tab.
addEventListener('focusin', (e) => {
  const board = e.target.closest?.(BOARD);
  if (board) rove(board, e.target);
});
addEventListener('focusout', (e) => {
  const board = e.target.closest?.(BOARD);
  if (board && e.relatedTarget && !board.contains(e.relatedTarget)) rove(board, e.relatedTarget);
});

// roveLater chooses the board's stop once it is drawn: its cells are
// marked one by one.
function roveLater(board) {
  if (due.has(board)) return;
  due.add(board);
  queueMicrotask(() => {
    due.delete(board);
    rove(board, document.activeElement);
  });
}

// rove makes one element of board the stop of Tab, focused being what has
// the focus: the board's element that has it, choice or not, so that Tab
// and Shift+Tab leave the board from there and come back to it; with the
// focus elsewhere, the stop it had if still a choice, else the choice
// nearest after it in page order (before it when none follows); with
// nothing to choose, the stop it had (on the game page the board itself
// at first, arrows.js), so that the board can still be looked at. Every
// other choice is out of the tab order but can take the focus; any other
// element cannot.
function rove(board, focused) {
  const choices = new Set(board.querySelectorAll(CHOICE));
  const was = board.getAttribute('tabindex') === '0' ? board : board.querySelector('[tabindex="0"]');
  let stop = was;
  if (focused && board.contains(focused)) stop = focused;
  else if (!choices.has(was)) stop = nearest([...choices], was) ?? was;
  for (const el of [board, ...board.querySelectorAll('[tabindex]')]) {
    if (el === stop) el.setAttribute('tabindex', '0');
    else if (choices.has(el) || el === document.activeElement) el.setAttribute('tabindex', '-1');
    else el.removeAttribute('tabindex');
  }
}

// nearest is the first of choices (in page order) after from, else the
// last before it; the first of all without from.
function nearest(choices, from) {
  if (!from) return choices[0];
  return choices.find((c) => from.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) ?? choices.at(-1);
}

// hasFocus says whether the focus is inside el.
export function hasFocus(el) {
  return el.contains(document.activeElement);
}

// held says whether a key is down. Focus moved to a button while Enter is
// down gets the rest of its press, a click: the button would choose for
// the player what the key meant for the element it left.
let held = false;
addEventListener('keydown', () => { held = true; }, true);
addEventListener('keyup', () => { held = false; }, true);
addEventListener('blur', () => { held = false; }); // its keyup goes elsewhere

// afterKey runs f now, or once the key that is down is let go: f may move
// the focus to a button.
export function afterKey(f) {
  if (held) addEventListener('keyup', f, { once: true });
  else f();
}

// keepFocus moves the focus inside el to the first element matching one of
// selectors, in their order, when the element that had it went away or
// stopped being a choice; with nothing to choose, it stays where it was,
// or goes to the first element matching rest (the board itself without
// one) rather than fall to the top of the page. While a key is down it
// waits for the key to be let go.
export function keepFocus(el, selectors, rest) {
  afterKey(() => moveFocus(el, selectors, rest));
}

function moveFocus(el, selectors, rest) {
  const a = document.activeElement;
  const inside = a && el.contains(a);
  if (inside && (a.tagName === 'BUTTON' || a.matches(CHOICE))) return;
  for (const sel of selectors) {
    const next = el.querySelector(sel);
    if (next) return next.focus({ preventScroll: true });
  }
  if (!inside) focusOn((rest && el.querySelector(rest)) ?? el.querySelector('svg') ?? el);
}

// focusOn gives el the focus, making it focusable (outside the tab order)
// if it is not: a cell no longer a choice, or the board itself.
export function focusOn(el) {
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus({ preventScroll: true });
}

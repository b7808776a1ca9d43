// Keyboard focus on a board: which cells take it, and where it goes when
// the cell that had it stops being a choice.

// setChoosable makes el a button that takes the focus when a player may
// choose it, and a picture outside it otherwise. A cell that has the focus
// keeps it when it stops being a choice (after the move made from it), so
// that the focus does not fall back to the top of the page.
//
// A board is one stop of Tab, not a stop per cell (a hundred presses to
// get past it): one of its choices is in the tab order, the arrow keys go
// between them (arrows.js), and the one last focused stays the stop.
export function setChoosable(el, choosable) {
  el.setAttribute('role', choosable ? 'button' : 'img');
  if (choosable) {
    if (el.getAttribute('tabindex') !== '0') el.setAttribute('tabindex', '-1');
  } else if (document.activeElement === el) el.setAttribute('tabindex', '-1');
  else el.removeAttribute('tabindex');
  const board = el.closest('svg[role="group"]');
  if (board) roveLater(board);
}

// CHOICE is a cell, stack or point a player may choose now.
export const CHOICE = '[data-cell][role="button"]';

const due = new WeakSet(); // boards whose stop is to be chosen again

// The stop follows the focus. Listened to on the document: a listener for
// focus on an SVG element makes Chromium put that element in the order of
// Tab.
addEventListener('focusin', (e) => {
  if (e.target.matches?.(CHOICE)) rove(e.target.closest('svg[role="group"]'));
});

// roveLater chooses the board's stop once it is drawn: its cells are
// marked one by one.
function roveLater(board) {
  if (due.has(board)) return;
  due.add(board);
  queueMicrotask(() => {
    due.delete(board);
    rove(board);
  });
}

// rove makes one choice of board the stop of Tab: the one with the focus;
// with the focus on a cell no longer a choice (the one just played), the
// next choice after it, so that Tab goes on from there; else the stop it
// had, if still a choice; else the first.
function rove(board) {
  if (!board) return;
  const choices = [...board.querySelectorAll(CHOICE)];
  if (!choices.length) return;
  const a = document.activeElement;
  const after = a && board.contains(a) && a.matches('[data-cell]')
    ? choices.find((c) => a.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) : null;
  const stop = choices.find((c) => c === a) ?? after ?? choices.find((c) => c.getAttribute('tabindex') === '0') ?? choices[0];
  for (const c of choices) c.setAttribute('tabindex', c === stop ? '0' : '-1');
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
// stopped being a choice; with nothing to choose, to the board itself,
// rather than let it fall to the top of the page. While a key is down it
// waits for the key to be let go.
export function keepFocus(el, selectors) {
  afterKey(() => moveFocus(el, selectors));
}

function moveFocus(el, selectors) {
  const a = document.activeElement;
  if (a && el.contains(a) && (a.tagName === 'BUTTON' || a.matches(CHOICE))) return;
  const kept = a && el.contains(a) && a.getAttribute('tabindex') === '-1';
  for (const sel of selectors) {
    const next = el.querySelector(sel);
    if (next) return next.focus({ preventScroll: true });
  }
  if (kept) return; // nothing to choose now: the focus stays where it was
  if (!el.contains(document.activeElement)) focusOn(el.querySelector('svg') ?? el);
}

// focusOn gives el the focus, making it focusable (outside the tab order)
// if it is not: a cell no longer a choice, or the board itself.
export function focusOn(el) {
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus({ preventScroll: true });
}

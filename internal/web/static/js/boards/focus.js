// Keyboard focus on a board: which cells take it, and where it goes when
// the cell that had it stops being a choice.

// setChoosable makes el a button in the tab order when a player may choose
// it, and a picture outside it otherwise. A cell that has the focus keeps
// it when it stops being a choice (after the move made from it), so that
// the focus does not fall back to the top of the page.
export function setChoosable(el, choosable) {
  el.setAttribute('role', choosable ? 'button' : 'img');
  if (choosable) el.setAttribute('tabindex', '0');
  else if (document.activeElement === el) el.setAttribute('tabindex', '-1');
  else el.removeAttribute('tabindex');
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
  if (a && el.contains(a) && (a.tagName === 'BUTTON' || a.getAttribute('tabindex') === '0')) return;
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

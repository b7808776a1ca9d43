// Buttons that pages and boards put up for the player.

// button makes a button with a label and a class that calls onClick.
export function button(label, cls, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

// fitMoves puts a move list in one column when a move is too long for
// half the list's width (Fanorona's chains of captures), so that each
// number stays beside its own move.
export function fitMoves(list) {
  const long = [...list.querySelectorAll('button.move')].some((b) => b.textContent.length > 9);
  list.classList.toggle('long', long);
}

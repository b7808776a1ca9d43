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

// Marks on a diagram, given as words in its data-marks: "e3" marks a cell,
// "*f3" crosses out a piece that a move would take, "d3-e3" draws a move as
// an arrow, "!e3-f3" a move the rules forbid, and "last" shows the last
// move. Each board draws the kinds it knows.

// parseMarks reads the words of list; isCell says which names are cells of
// the board, so that a word naming none is passed over.
export function parseMarks(list, isCell) {
  const out = { cells: new Set(), crosses: new Set(), arrows: [], last: false };
  for (const m of list || []) {
    if (m === 'last') {
      out.last = true;
      continue;
    }
    const forbidden = m.startsWith('!');
    const body = m.replace(/^[!*]/, '');
    const names = body.split('-');
    if (!names.every(isCell)) continue;
    if (names.length > 1) {
      for (let k = 1; k < names.length; k++) out.arrows.push([names[k - 1], names[k], forbidden]);
    } else if (m.startsWith('*')) {
      out.crosses.add(body);
    } else {
      out.cells.add(body);
    }
  }
  return out;
}

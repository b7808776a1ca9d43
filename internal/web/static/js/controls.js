// Buttons and lines of text that pages and boards put up for the player,
// and what they read from a game's events alike.

// button makes a button with a label and a class that calls onClick.
export function button(label, cls, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

// isolated holds text a player wrote, such as a name: whatever direction
// it takes (a right-to-left override, say) stays inside, and the site's
// words beside it keep theirs.
export function isolated(text) {
  const el = document.createElement('bdi');
  el.textContent = text;
  return el;
}

// fitMoves puts a move list in one column when a move may be too long for
// half the list's width, in bold as the last move is (Fanorona's captures,
// a DVONN move that cut off ten pieces or more), so that each move stays
// on one line, beside its number.
export function fitMoves(list) {
  const long = [...list.querySelectorAll('button.move')].some((b) => b.textContent.length > 7);
  list.classList.toggle('long', long);
}

// resultLine says how a game ended: result as the server gives it, view
// the last position (DVONN's score is in it).
export function resultLine(t, result, view) {
  const { winner, reason } = result;
  const colour = (seat) => t('colour.' + seat);
  const params = winner === 'none' ? { winner: '' } : { winner: colour(winner), loser: colour(winner === 'white' ? 'black' : 'white') };
  if (view && view.score) Object.assign(params, view.score);
  let key = 'result.' + reason;
  if (reason === 'score' && winner === 'none') key = 'result.score_draw';
  const text = t(key, params);
  if (text !== key) return text;
  return winner === 'none' ? t('result.draw') : t('result.other', params);
}

// standing lists the move events of a game whose moves still stand: a
// takeback's event removes the moves it took back, as the server's list of
// moves (and of what each captured) no longer has them.
export function standing(events) {
  const moves = [];
  for (const e of events) {
    if (e.kind === 'move') moves.push(e);
    else if (e.kind === 'takeback') moves.length -= Number(e.move);
  }
  return moves;
}

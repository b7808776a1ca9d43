// Stepping through a game's positions: the buttons under the board, the
// keys ←/→ (Home/End among those buttons and in the list of moves), or a
// click on a move in the list. Position k is the
// board after k moves; "live" is the game as it stands now.
//
// playOn(k), when given, describes position k for "play on from here
// against the computer" ({game, options, moves, toMove}), or is null where
// that is not offered.
export function createReplay({ t, count, show, liveText, playOn }) {
  const controls = document.getElementById('replay');
  const banner = document.getElementById('replay-banner');
  const form = document.getElementById('play-on');
  let at = null; // null: live

  function go(k) {
    const n = count();
    at = k === null || k >= n ? null : Math.max(0, k);
    banner.textContent = at === null ? liveText() : t('replay.viewing', { n: at, total: n });
    banner.classList.toggle('viewing', at !== null);
    show(at);
    if (form) form.hidden = !playOn || !playOn(at === null ? n : at);
  }

  // The form carries the position as hidden fields, filled in when sent.
  form?.addEventListener('submit', () => {
    const p = playOn(at === null ? count() : at);
    for (const old of form.querySelectorAll('input.position')) old.remove();
    const fields = { game: p.game, moves: p.moves.join(' '), start: p.toMove === 'white' ? 'me' : 'friend' };
    for (const [name, value] of Object.entries(p.options || {})) {
      if (value !== 0 && value !== false) fields[name] = String(value === true ? 1 : value);
    }
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.className = 'position';
      input.name = name;
      input.value = value;
      form.append(input);
    }
  });

  function step(delta) {
    const n = count();
    if (at === null && delta > 0) return;
    go((at === null ? n : at) + delta);
  }

  controls.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-step]');
    if (!b) return;
    ({ first: () => go(0), prev: () => step(-1), next: () => step(1), last: () => go(null) })[b.dataset.step]();
  });

  document.addEventListener('keydown', (e) => {
    // The keys belong to whatever has the focus on the board (the board
    // itself too), or in a field. Home and End scroll the page to its top
    // and end: they go to the first and last move only from the replay's
    // buttons and the lists of moves.
    if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest('input, textarea, select, dialog, [data-cell], .board button, .board svg')) return;
    const ours = e.target.closest('#replay, .moves, .strip');
    const action = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: ours && (() => go(0)), End: ours && (() => go(null)), Escape: () => go(null) }[e.key];
    if (action && count() > 0) {
      e.preventDefault();
      action();
    }
  });

  return { go, viewing: () => at };
}

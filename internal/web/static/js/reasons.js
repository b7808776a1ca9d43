// Why the rules or a record's reader refused something, in the page's
// language: the server sends its reasons from where to what, each a
// message (why.…) with its values, and words among them as messages too.

// MOVE_REASONS name the messages a player's game page may need for a
// refused move, so that its catalogue carries them (the server's
// messageKeys reads the scripts' strings): the kind of refusal, and each
// board's own reasons.
export const MOVE_REASONS = ['why.illegal_move', 'why.malformed_move', 'why.game_over', 'why.after_end', 'why.havannah.', 'why.dvonn.', 'why.fanorona.'];

// LINE_REASONS name the messages of a chat line or a name refused, which
// the player wrote.
export const LINE_REASONS = ['why.line.'];

// reasonsText joins the reasons into one sentence.
export function reasonsText(t, list) {
  return list.map((r) => t(r.key, Object.fromEntries(r.args.map((a) => [a.name, a.key ? t(a.key) : a.value])))).join(': ');
}

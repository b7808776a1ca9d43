// The game page: keeps a live connection to the server and draws what it
// sends (invite.js takes the seat an invitation offers). Moves go out with
// the ply they expect; the server answers with an ack or a clear error.
import { lang, t, time } from './i18n.js';
import { later, load } from './boards.js';
import { afterKey, focusOn } from './boards/choose.js';
import { fitMoves, isolated, resultLine, standing } from './controls.js';
import { createReplay } from './replay.js';
import { wire } from './settings.js';

const $ = (id) => document.getElementById(id);

// page is everything the page keeps between events.
const page = {
  boot: null, // what the server put into the page: game, id, seat, invite, used
  board: null,
  mod: null, // the board module, for its optional hooks
  state: null,
  version: -1, // of the last event or state applied
  socket: null,
  retry: 0,
  // The move sent and not yet answered, {id, ply, move}: kept across a
  // lost connection and sent again, with the same ply, once it is back.
  pending: null,
  connected: false,
  nextMessage: 1,
  replay: null,
  settings: null,
  preview: null, // a move chosen and waiting for confirmation
  past: { version: -1, positions: [] }, // every position, fetched for replaying
  clocksLoading: null,
  clocks: null, // the clocks, once their script is loaded: only a game with clocks loads it
  chat: null, // a promise of the chat, for a player's page
  actions: null, // a player's controls, once their script is loaded
  said: false, // a move was announced in this turn: a clock's warning goes after it
};

export async function start() {
  page.boot = JSON.parse($('boot').textContent);
  wireCopy(); // at once: the board's script may be long in coming
  page.mod = await load(page.boot.game);
  page.settings = wire(() => render());
  // The bar's buttons for what a phone needs at hand: turning the board
  // round (the same as its setting) and the settings further down.
  $('flip').addEventListener('click', () => document.querySelector('input[data-setting="flip"]').click());
  // On a phone that bar is fixed at the bottom of the screen, as tall as
  // its buttons wrap: the style sheet keeps that much room free. The offer
  // to reload an updated site comes above the board, and moves it down.
  const fit = new ResizeObserver(fitBoard);
  fit.observe($('action-bar'));
  fit.observe($('updated'));
  // Past the board without leaving the page's address a fragment.
  document.querySelector('.skip-board').addEventListener('click', (e) => {
    e.preventDefault();
    $('action-bar').focus();
  });
  $('settings-open').addEventListener('click', () => {
    $('settings').open = true;
    $('settings').scrollIntoView({ block: 'nearest' });
    $('settings').querySelector('input')?.focus({ preventScroll: true });
  });
  if (page.boot.clock) loadClocks();
  if (page.settings.sound) later(() => import('./sound.js')); // at hand for the first move
  // The board's arrow keys, a player's controls, chat and push notices
  // are not needed for the board to show: their scripts come after it.
  // A watcher needs only the arrow keys, to go over the board.
  later(() => import('./boards/arrows.js')).then((m) => m.arrowKeys($('board'), !page.boot.seat));
  if (page.boot.seat) {
    // Against the computer there is neither chat nor push notices.
    if ($('notices')) later(() => import('./notices.js')).then((m) => m.wireNotices({ t, gameId: page.boot.id }));
    later(() => import('./actions.js')).then((m) => {
      page.actions = m.createActions({ t, page, send, play, sendMove, colourName, notice });
      render();
    });
    if ($('chat')) page.chat = later(() => import('./chat.js')).then((m) => m.createChat({ t, page, send, notice }));
  }
  $('pending-yes').addEventListener('click', () => {
    const move = page.preview;
    page.preview = null;
    if (move) sendMove(move);
    backToBoard();
  });
  $('pending-no').addEventListener('click', () => {
    page.preview = null;
    render();
    backToBoard();
  });
  // Escape answers as Cancel does, as it puts away a choice on the board
  // (and does not go on to the replay's keys).
  $('pending').addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    $('pending-no').click();
  });
  page.board = page.mod.create($('board'), { t, send: play, refused: (cell, key) => page.actions?.refused(cell, key), marks: [] });
  // The board the server drew is replaced at once by a live one of the
  // same position, before the connection brings the rest.
  if (page.boot.view) page.board.update({ view: page.boot.view, legal: [] });
  const count = () => (page.state ? page.state.moves.length : 0);
  page.replay = createReplay({
    t, count, show: showAt, playOn,
    // A game that is over is no longer in play: its end is its final position.
    liveText: () => (page.state?.status === 'over' ? t('replay.end', { total: count() }) : t('replay.live')),
  });
  for (const list of [$('moves'), $('strip')]) {
    list.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-ply]');
      if (b) page.replay.go(Number(b.dataset.ply));
    });
  }
  // On a touch screen the board is how moves are made: typing folds away.
  if (matchMedia('(pointer: coarse)').matches && $('move-entry')) $('move-entry').open = false;
  // The invitation (a friend's page, or the creator's to share it) has
  // a script of its own: most pages are neither.
  if (page.boot.invite || page.boot.used || $('invite-share')) {
    later(() => import('./invite.js')).then((m) => m.invitation({ t, page, notice, render }));
  }
  connect();
}

// wireCopy makes the copy buttons of the links to share, which only a
// game page has, copy their links.
function wireCopy() {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const input = $(button.dataset.copy);
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        input.select();
        document.execCommand('copy');
      }
      const label = button.textContent;
      button.textContent = t('share.copied');
      setTimeout(() => { button.textContent = label; }, 1500);
    });
  }
}

function connect() {
  const after = page.version >= 0 ? `?after=${page.version}` : '';
  // http: becomes ws:, https: wss:.
  page.socket = new WebSocket(`${location.origin.replace('http', 'ws')}/api/games/${page.boot.id}/ws${after}`);
  page.socket.addEventListener('open', () => {
    page.retry = 0;
    page.connected = true;
    $('connection').hidden = true;
    shown();
  });
  page.socket.addEventListener('message', (e) => receive(JSON.parse(e.data)));
  page.socket.addEventListener('close', () => {
    page.socket = null;
    page.connected = false;
    $('connection').hidden = false;
    page.clocks?.offline();
    render(); // who is online is not known any more
    // In a game in play on a live clock, the wait is short enough for the
    // grace the clocks give after the site was down to cover it (README,
    // clocks). Elsewhere a long outage is waited out in half minutes, not
    // to spend a phone's battery, and a random part of each wait keeps
    // the pages from all coming back at the same moment.
    const live = page.state?.clock?.initial_ms && page.state.status !== 'over';
    const wait = Math.min(live ? 2000 : 30000, 500 * 2 ** page.retry++);
    page.reconnect = setTimeout(connect, wait * (1 + Math.random()) / 2);
  });
}

// shown tells the server whether a player's page is on screen: a player
// who sees the game there is sent no notice of it.
function shown() {
  if (page.boot.seat) send({ type: 'shown', shown: document.visibilityState === 'visible' });
}
document.addEventListener('visibilitychange', shown);

// When the device says it is back online, or the page is back on screen
// (a hidden page's timers may be held back), reconnect at once rather
// than at the end of the wait.
function reconnectNow() {
  if (page.socket || !page.reconnect) return;
  clearTimeout(page.reconnect);
  connect();
}
addEventListener('online', reconnectNow);
addEventListener('visibilitychange', reconnectNow);

// settle matches the pending move with the state the server sent after a
// reconnection: played already, or to be sent again as it was. The page
// shows the state next.
function settle(s) {
  const p = page.pending;
  if (!p) return;
  if (s.moves.length > p.ply || s.status !== 'playing' || s.to_move !== page.boot.seat) {
    page.pending = null;
    if (s.moves[p.ply] !== p.move) notice(t('error.stale'));
    return;
  }
  send({ type: 'move', id: p.id, ply: p.ply, move: p.move });
}

function send(msg) {
  if (!page.socket || page.socket.readyState !== WebSocket.OPEN) return false;
  page.socket.send(JSON.stringify(msg));
  return true;
}

function receive(msg) {
  switch (msg.type) {
    case 'state':
      page.version = msg.version;
      // Only a move sent before this state is settled with it: showing it
      // may send one held while the page had no game, which is new.
      settle(msg.state);
      show(msg.state);
      page.chat?.then((chat) => chat.reset(msg.state));
      break;
    case 'chat':
      page.chat?.then((chat) => chat.add(msg.line));
      break;
    case 'event':
      if (msg.version <= page.version) break;
      if (msg.version !== page.version + 1) {
        send({ type: 'resync', after: page.version });
        break;
      }
      page.version = msg.version;
      if (msg.change && page.state) {
        const next = applyChange(page.state, msg);
        // The move the rules force next (a pass) is the next event,
        // already on its way: showing this one would say it is the
        // passer's turn for a moment. The board shows the move, so that
        // what it cut off is seen as it happens and stays marked.
        if (msg.change.forces) {
          page.state = next;
          paintBoard(false);
          announce(msg.event);
        } else show(next, msg.event);
      }
      break;
    case 'ack':
    case 'error':
      if (msg.id === page.pending?.id) page.pending = null;
      if (msg.next) location.assign(`/g/${page.boot.id}/next`);
      page.chat?.then((chat) => chat.answered(msg));
      // Only a player's messages are refused for reasons worth a word.
      if (page.actions) page.actions.answered(msg);
      else if (msg.error) notice(t('error.other', { detail: msg.error }));
      render();
      break;
    case 'presence':
      if (page.state) {
        page.state.players = msg.players;
        renderPlayers();
      }
      break;
    case 'next':
      // Only whoever asked for the new game goes along, and not while
      // stepping through this one; everyone else gets a link.
      if (page.boot.seat && page.state?.offer?.by === page.boot.seat && page.replay.viewing() === null) {
        location.assign(`/g/${page.boot.id}/next`);
        break;
      }
      if (page.state) {
        page.state.next = msg.game;
        page.state.offer = null;
        notice(t('actions.rematch_started'));
        render();
      }
      break;
  }
}

// applyChange is the state after a live event: the event (and its move)
// added to the lists, the rest as the server says it now is. What the
// rules force next is news of this event, not part of the state.
function applyChange(s, msg) {
  const { event, change } = msg;
  const next = { ...s, ...change, forces: undefined, version: msg.version, events: [...s.events, event], legal: msg.legal || [], captured: s.captured };
  if (event.kind === 'move') {
    next.moves = [...s.moves, event.move];
    if (change.captured !== undefined) next.captured = [...(s.captured || []), change.captured];
  }
  return next;
}

function notice(text) {
  $('notice').textContent = text;
}

// play takes the viewer's move from the board: at once, or after a
// confirmation when the viewer asked for one.
function play(move) {
  if (page.pending || !page.state) return;
  if (page.settings.confirm) {
    page.preview = move;
    render();
    // In view above a phone's action bar (its scroll margin), not under it.
    $('pending').scrollIntoView({ block: 'nearest' });
    page.chosenFrom = document.activeElement;
    afterKey(() => $('pending-yes').focus({ preventScroll: true }));
    return;
  }
  sendMove(move);
}

// backToBoard returns the focus from the confirmation, which hides once
// answered, to where it was on the board (or to the board), rather than
// let it fall to the top of the page.
function backToBoard() {
  if (!$('pending').contains(document.activeElement)) return;
  const from = page.chosenFrom;
  focusOn(from && $('board').contains(from) ? from : $('board').querySelector('svg') ?? $('board'));
}

function sendMove(move) {
  if (page.pending || !page.state) return;
  page.pending = { id: page.nextMessage++, ply: page.state.moves.length, move };
  send({ type: 'move', ...page.pending });
  notice('');
  render();
}

// show puts up the state s, after the event that led to it, if one did.
function show(s, event) {
  const ended = page.state && page.state.status !== 'over' && s.status === 'over';
  // A move taken back comes as a whole new state: what was said of the
  // position before (a refused move, say) no longer holds, and the one
  // who asked is told.
  if (page.state && s.moves.length < page.state.moves.length) {
    notice('');
    page.actions?.tellOffer(s.events[s.events.length - 1]);
  }
  // A move waiting for its confirmation stays while the game goes on
  // from the position it was chosen in: news that is no move (an offer,
  // a name) changes nothing of it.
  if (s.status !== 'playing' || s.moves.join() !== page.state?.moves.join()) page.preview = null;
  page.state = s;
  if (s.clock && !page.clocks) loadClocks();
  // The move is heard first, then a warning of the clocks that it brings
  // (added to it, see loadClocks), then what it led to: the game's end,
  // in the status.
  if (event) announce(event);
  page.clocks?.update(s);
  render();
  // What was said of the game in play (an offer, say) no longer holds.
  if (ended) notice('');
  if (ended && page.settings.sound) beep('end');
}

// loadClocks brings the clocks' script, which the page preloads for a
// game with clocks, and shows the clocks of the state once it is there.
function loadClocks() {
  if (page.clocksLoading) return;
  page.clocksLoading = later(() => import('./clocks.js')).then((m) => {
    page.clocks = m.createClocks({
      t, root: $('clocks'), colourName, soundOn: () => page.settings.sound, mySeat: page.boot.seat,
      // A warning given with a move (announce, just before) is added to
      // it: written over it, in the same turn, it would be all that is heard.
      announce: (text) => page.said ? $('announce').append(' ' + text) : ($('announce').textContent = text),
      slot: (seat) => document.querySelector(`.player-bar .bar-clock.${seat}`),
    });
    if (page.state) {
      page.clocks.update(page.state);
      render();
    }
  });
}

// beep plays a sound of sound.js, which loads when sound is first wanted.
// A sound that would come late is not played: its script is not asked
// for again, unless the next sound asks.
function beep(name) {
  import('./sound.js').then((sound) => sound[name]());
}

// announce says what was just played, for screen readers and for the
// opponent's page.
function announce(event) {
  page.actions?.tellOffer(event); // a player's page only
  if (event.kind !== 'move') return;
  if (event.seat !== page.boot.seat) {
    notice('');
    if (page.settings.sound && page.state.status !== 'over') beep('move');
  }
  const text = page.mod.eventText ? page.mod.eventText(event, page.state, t)
    : t('announce.move', { colour: colourName(event.seat), move: moveLabel(event.move) });
  $('announce').textContent = text;
  page.said = true;
  queueMicrotask(() => { page.said = false; });
}

function colourName(seat) {
  return t('colour.' + seat);
}

function statusText() {
  const s = page.state;
  if (s.status === 'over') return resultText(s);
  if (s.status === 'waiting') {
    if (page.boot.seat) return t('status.waiting');
    return $('take-seat') ? t('status.waiting_you') : t('status.waiting_watch'); // the friend, with the seat offered
  }
  if (page.pending) return page.connected ? t('status.sending') : t('status.reconnecting', { move: page.pending.move });
  const colour = colourName(s.to_move);
  if (s.players[s.to_move].computer) return t('status.thinking', { colour });
  if (!page.boot.seat) return t('status.to_move', { colour });
  return s.to_move === page.boot.seat ? t('status.your_turn', { colour }) : t('status.their_turn', { colour });
}

function resultText(s) {
  const r = s.result;
  let text = resultLine(t, r, s.view);
  if (page.boot.seat && r.winner !== 'none') {
    text += ' ' + (r.winner === page.boot.seat ? t('result.you_won') : t('result.you_lost'));
  }
  return text;
}

// playOn describes position k for playing on against the computer: any
// position before the last, and the last one of a resigned game.
function playOn(k) {
  if (!page.state) return null;
  const n = page.state.moves.length;
  if (k === n && !(page.state.status === 'over' && page.state.result?.reason === 'resign')) return null;
  const seat = k < n ? standing(page.state.events)[k].seat : page.state.to_move;
  return { game: page.state.game, options: page.state.options, moves: page.state.moves.slice(0, k), toMove: seat };
}

// showAt draws the position after k moves, or the live game for null.
async function showAt(k) {
  if (k === null) {
    render();
    return;
  }
  if (page.past.version !== page.version) {
    const res = await fetch(`/api/games/${page.boot.id}/positions`);
    if (!res.ok) return;
    page.past = await res.json();
  }
  if (page.replay.viewing() !== k || !page.past.positions[k]) return; // moved on meanwhile
  page.board.update({ view: page.past.positions[k].view, legal: [] });
  renderSummary(k);
  markViewed(k, true);
}

// renderSummary puts up the board's summary (a score, the pieces left) of
// the position after k moves, or of the live game for null: stepping back,
// it speaks of the position on the board.
function renderSummary(k) {
  let s = page.state;
  if (k !== null) {
    const past = page.past.version === page.version && page.past.positions[k];
    if (!past) return; // showAt puts it up once it has the position
    s = { ...s, view: past.view, events: standing(s.events).slice(0, k) };
  }
  const summary = page.mod.summary ? page.mod.summary(s, t) : '';
  $('summary').textContent = summary;
  $('summary').hidden = !summary;
}

// markViewed marks the move of position k in the lists, each scrolled to
// show it: smoothly when stepped to (unless the viewer asked for reduced
// motion), at once when the lists are written anew.
function markViewed(k, step) {
  for (const b of document.querySelectorAll('#moves button[data-ply], #strip button[data-ply]')) {
    if (Number(b.dataset.ply) !== k) {
      b.removeAttribute('aria-current');
      continue;
    }
    b.setAttribute('aria-current', 'step');
    // The list scrolls, never the page.
    const list = b.closest('ol'), r = b.parentElement.getBoundingClientRect(), l = list.getBoundingClientRect();
    list.scrollBy({
      top: Math.min(0, r.top - l.top) || Math.max(0, r.bottom - l.bottom),
      left: Math.min(0, r.left - l.left) || Math.max(0, r.right - l.right),
      behavior: step && !matchMedia('(prefers-reduced-motion: reduce)').matches ? 'smooth' : 'instant',
    });
  }
}

// A move, a name or a chat line sent before the players' scripts are in
// (Enter pressed as the page loads) is held: its form sends nothing by
// itself (method dialog, outside a dialog), so what was typed stays, and
// the players' controls send it once they are in and the page has the
// game (actions.js, held).
addEventListener('submit', (e) => {
  const form = e.target;
  if (!e.defaultPrevented && form.method === 'dialog' && !form.closest('dialog')) form.dataset.held = '';
});

function render() {
  if (!page.state) return;
  page.actions?.held();
  const mine = page.boot.seat && page.state.status === 'playing' && page.state.to_move === page.boot.seat && !page.pending;
  const viewing = page.replay.viewing();
  paintBoard(mine);
  $('pending').hidden = !page.preview;
  $('pending-text').textContent = page.preview ? t('confirm.move', { move: page.preview }) : '';
  $('status').textContent = statusText();
  if (page.state.status !== 'waiting') $('take-seat')?.parentElement.remove(); // taken, or called off
  document.title = (mine ? '● ' : '') + document.title.replace(/^● /, '');
  const size = (page.state.options || {}).size;
  $('game-options').textContent = size ? `· ${t('option.size')} ${size}` : '';
  renderSummary(viewing);
  // Once the friend has joined, the invitation is used up; once the game
  // is over, there is no move to type.
  if (page.state.status !== 'waiting') $('invite')?.remove();
  // A game that ended before the friend came has nobody to chat with and
  // no turn to tell of.
  if (page.state.status === 'over' && !(page.state.players.white.seated && page.state.players.black.seated)) {
    $('chat')?.remove();
    $('notices')?.remove();
  }
  if ($('move-entry')) $('move-entry').hidden = page.state.status === 'over';
  renderMoves();
  markViewed(viewing);
  renderPlayers();
  renderActions(mine);
  // Back at the live game the banner keeps what replay.js said there, for
  // a screen reader to read out.
  if (viewing !== null) $('replay-banner').textContent = t('replay.viewing', { n: viewing, total: page.state.moves.length });
  fitBoard();
}

// paintBoard draws the live game on the board, unless an earlier move is
// shown there, with the viewer's moves when it is their turn (mine).
function paintBoard(mine) {
  if (page.replay.viewing() === null) page.board.update({ ...page.state, legal: mine && !page.preview ? page.state.legal || [] : [], preview: page.preview });
}

// fitBoard tells the style sheet how tall the action bar is and where the
// board begins (below the header, an offer to reload, the status and a
// player's bar, however they wrap): on a phone the board takes what is
// left of the screen.
function fitBoard() {
  const root = document.documentElement.style;
  root.setProperty('--bar-height', `${$('action-bar').offsetHeight}px`);
  root.setProperty('--board-top', `${$('board').getBoundingClientRect().top + scrollY}px`);
}

// Events that end a game, shown at the end of the move list.
const ENDINGS = ['resign', 'timeout', 'draw', 'abort'];

function renderMoves() {
  const list = $('moves');
  const kept = focusInMoves();
  list.replaceChildren();
  const captured = page.state.captured || [];
  const ending = page.state.events.findLast((e) => ENDINGS.includes(e.kind));
  standing(page.state.events).forEach((event, n) => {
    const li = document.createElement('li');
    li.dataset.ply = String(n + 1);
    li.className = event.seat;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'move';
    b.dataset.ply = String(n + 1);
    b.textContent = page.mod.moveLabel ? page.mod.moveLabel(event.move, captured[n] || 0, t) : moveLabel(event.move, captured[n] || 0);
    li.append(b);
    list.append(li);
  });
  if (ending) {
    const li = document.createElement('li');
    li.textContent = t('moves.' + ending.kind, { colour: colourName(ending.seat) });
    li.className = ending.kind;
    list.append(li);
  }
  fitMoves(list);
  const strip = $('strip');
  strip.replaceChildren(...[...list.children].map((li) => li.cloneNode(true)));
  const last = list.lastElementChild;
  if (last) {
    last.classList.add('latest');
    strip.lastElementChild.classList.add('latest');
    // The lists scroll to their ends; the page stays where the player put it.
    list.scrollTop = list.scrollHeight;
    strip.scrollLeft = strip.scrollWidth;
  } else {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = t('moves.none');
    list.append(li);
  }
  kept?.();
}

// focusInMoves notes which move's button has the focus, if one has, and
// returns what gives the focus back to it once the lists are written anew
// with the next event: to the same move, or the last one left after a
// move taken back, with its list scrolled as the player had it.
function focusInMoves() {
  const b = document.activeElement?.closest?.('#moves button[data-ply], #strip button[data-ply]');
  if (!b) return null;
  const list = b.closest('ol');
  const { scrollTop, scrollLeft } = list;
  return () => {
    const again = list.querySelector(`button[data-ply="${b.dataset.ply}"]`) ?? [...list.querySelectorAll('button[data-ply]')].at(-1);
    Object.assign(list, { scrollTop, scrollLeft });
    if (again) again.focus({ preventScroll: true });
    else focusOn(list);
  };
}

function moveLabel(move, captured) {
  const text = move === 'swap' ? t('moves.swap') : move;
  return captured > 0 ? `${text} ×${captured}` : text;
}

function renderPlayers() {
  const list = $('players');
  list.replaceChildren();
  for (const seat of ['white', 'black']) {
    const p = page.state.players[seat];
    const li = document.createElement('li');
    li.className = `player ${seat}` + (page.state.to_move === seat && page.state.status === 'playing' ? ' to-move' : '');
    const who = p.computer ? t('players.computer', { level: p.computer })
      : !p.seated ? t('players.free') : seat === page.boot.seat ? t('players.you') : page.boot.seat ? t('players.friend') : '';
    let where = '';
    if (p.seated && seat !== page.boot.seat && !p.computer && page.connected) {
      where = p.online ? t('players.online') : p.since ? t('players.away', { time: time(new Date(p.since)) }) : t('players.offline');
    }
    li.append(dot(seat), ' ', ...(p.name ? [isolated(p.name), ' · '] : []), colourName(seat));
    if (who) li.append(` (${who})`);
    if (where) {
      const span = document.createElement('span');
      span.className = 'presence ' + (p.online ? 'online' : 'away');
      span.textContent = where;
      li.append(' ', span);
    }
    list.append(li);
  }
  renderBars();
  // A name given or changed shows on the lines of the chat before it too.
  page.chat?.then((chat) => chat.names());
}

// renderBars puts the players beside the board, as a phone shows them: the
// viewer (or White, for a watcher) below, the other player above.
function renderBars() {
  const s = page.state;
  let below = page.boot.seat || 'white';
  if (page.settings.flip) below = below === 'white' ? 'black' : 'white';
  const above = below === 'white' ? 'black' : 'white';
  $('flip').setAttribute('aria-pressed', String(!!page.settings.flip));
  // Said alone, not after the colour, "you" and "your friend" begin the
  // bar; a name is shown as its player wrote it.
  const label = (key) => { const text = t(key); return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1); };
  for (const [id, seat] of [['bar-top', above], ['bar-bottom', below]]) {
    const p = s.players[seat];
    const bar = $(id);
    const turn = s.status === 'playing' && s.to_move === seat;
    bar.className = `player-bar ${seat}` + (turn ? ' to-move' : '');
    const name = document.createElement('span');
    name.className = 'who';
    const who = p.computer ? t('players.computer', { level: p.computer })
      : seat === page.boot.seat ? label('players.you') : p.name ? isolated(p.name) : !p.seated ? label('players.free') : page.boot.seat ? label('players.friend') : '';
    // The dot shows the colour; a phone's narrow bar keeps its room for
    // who plays it, and says the colour only to a screen reader.
    if (who) {
      const colour = document.createElement('span');
      colour.className = 'visually-hidden';
      colour.textContent = `${colourName(seat)} · `;
      name.append(colour, who);
    } else {
      name.textContent = colourName(seat);
    }
    const parts = [dot(seat), name];
    if (seat !== page.boot.seat && p.seated && !p.computer && page.connected) {
      // A dot for whether they are here; the words, too long for the
      // bar, for a screen reader and a pointer's tooltip.
      const span = document.createElement('span');
      span.className = 'presence ' + (p.online ? 'online' : 'away');
      span.title = p.online ? t('players.online') : t('players.offline');
      const words = document.createElement('span');
      words.className = 'visually-hidden';
      words.textContent = span.title;
      span.append(words);
      parts.push(span);
    }
    if (turn) {
      const span = document.createElement('span');
      // The bar's frame shows whose turn it is; the words are for a
      // screen reader, and their room for the clock.
      span.className = 'turn visually-hidden';
      span.textContent = t('players.turn');
      parts.push(span);
    }
    if (s.clock) {
      const span = document.createElement('span');
      span.className = `bar-clock ${seat}` + (s.clock.days ? ' days' : '');
      page.clocks?.mark(span, seat);
      parts.push(span);
    }
    bar.replaceChildren(...parts);
  }
}

function dot(seat) {
  const span = document.createElement('span');
  span.className = `dot ${seat}`;
  span.setAttribute('aria-hidden', 'true');
  return span;
}

// renderActions puts up the new game that followed a finished one, for
// everybody, and a player's own controls once their script is there.
function renderActions(mine) {
  const box = $('actions');
  // The buttons are made anew: what had the focus keeps it (the new
  // game's terms are put back as they were), or its like among the new
  // buttons, or for a button gone the first one, else the box; never the
  // top of the page. Not while a key is down, which would press it.
  const was = box.contains(document.activeElement) && document.activeElement;
  box.replaceChildren();
  if (page.state.status === 'over' && page.state.next) {
    const a = document.createElement('a');
    a.href = page.boot.seat ? `/g/${page.boot.id}/next` : `/g/${page.state.next}`;
    a.className = 'button primary go-next';
    a.textContent = t('actions.go_next');
    const p = document.createElement('p');
    p.className = 'offer';
    p.textContent = t('actions.rematch_started');
    box.append(p, a);
  }
  page.actions?.render(box, mine);
  if (was) {
    afterKey(() => {
      const el = (box.contains(was) ? was : [...box.querySelectorAll('button')].find((b) => b.className === was.className))
        || (was.tagName === 'BUTTON' && box.querySelector('button'));
      if (el) el.focus(); else focusOn(box);
    });
  }
}

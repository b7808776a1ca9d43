// The game page: joins through an invitation if need be, keeps a live
// connection to the server and draws what it sends. Moves go out with the
// ply they expect; the server answers with an ack or a clear error.
import { t, time } from './i18n.js';
import { load } from './boards.js';
import { createReplay } from './replay.js';
import { createClocks } from './clocks.js';
import { wire } from './settings.js';
import * as sound from './sound.js';

const $ = (id) => document.getElementById(id);

let boot;
let board;
let mod; // the board module, for its optional hooks
let state = null;
let version = -1; // of the last event or state applied
let socket = null;
let retry = 0;
let pending = null; // id of a move sent and not yet answered
let nextMessage = 1;
let replay;
let settings;
let preview = null; // a move chosen and waiting for confirmation
let past = { version: -1, positions: [] }; // every position, fetched for replaying
let clocks;

export async function start() {
  boot = JSON.parse($('boot').textContent);
  mod = await load(boot.game);
  settings = wire(() => render());
  clocks = createClocks({
    t, root: $('clocks'), colourName, soundOn: () => settings.sound, mySeat: boot.seat,
    announce: (text) => { $('announce').textContent = text; },
  });
  $('pending-yes').addEventListener('click', () => {
    const move = preview;
    preview = null;
    if (move) sendMove(move);
  });
  $('pending-no').addEventListener('click', () => {
    preview = null;
    render();
  });
  $('move-form')?.addEventListener('submit', (e) => {
    e.preventDefault();
    typed($('move-input').value.trim());
  });
  board = mod.create($('board'), { t, send: play, marks: [] });
  replay = createReplay({
    t, count: () => (state ? state.moves.length : 0), show: showAt, liveText: () => t('replay.live'), playOn,
  });
  $('moves').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-ply]');
    if (b) replay.go(Number(b.dataset.ply));
  });
  if (boot.invite) {
    await join();
  } else if (boot.used) {
    notice(t('join.used'));
    history.replaceState(null, '', `/g/${boot.id}`);
  }
  connect();
}

// join takes the free seat with the invitation token; the answer sets the
// seat's cookie, and the page reloads as the player.
async function join() {
  $('status').textContent = t('join.joining');
  let res;
  try {
    res = await fetch(`/api/games/${boot.id}/join`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ invite: boot.invite }),
    });
  } catch (err) {
    // Without a connection there is no seat to take: watch, and the
    // invitation can be opened again later.
    notice(t('error.other', { detail: err.message }));
    return;
  }
  if (res.ok) {
    location.replace(`/g/${boot.id}`);
    await new Promise(() => {}); // the page is going away
  }
  const body = await res.json().catch(() => ({}));
  history.replaceState(null, '', `/g/${boot.id}`);
  notice(body.code === 'seat_taken' ? t('join.used') : t('error.other', { detail: body.error || res.status }));
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const after = version >= 0 ? `?after=${version}` : '';
  socket = new WebSocket(`${scheme}://${location.host}/api/games/${boot.id}/ws${after}`);
  socket.addEventListener('open', () => {
    retry = 0;
    $('connection').hidden = true;
  });
  socket.addEventListener('message', (e) => receive(JSON.parse(e.data)));
  socket.addEventListener('close', () => {
    socket = null;
    pending = null;
    $('connection').hidden = false;
    setTimeout(connect, Math.min(10000, 500 * 2 ** retry++));
  });
}

function send(msg) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(msg));
  return true;
}

function receive(msg) {
  switch (msg.type) {
    case 'state':
      version = msg.version;
      show(msg.state);
      break;
    case 'event':
      if (msg.version <= version) break;
      if (msg.version !== version + 1) {
        send({ type: 'resync', after: version });
        break;
      }
      version = msg.version;
      if (msg.state) {
        show(msg.state);
        announce(msg.event);
      }
      break;
    case 'ack':
      if (msg.id === pending) pending = null;
      if (msg.next) location.assign(`/g/${boot.id}/next`);
      render();
      break;
    case 'error':
      if (msg.id === pending) pending = null;
      notice(errorText(msg));
      render();
      break;
    case 'presence':
      if (state) {
        state.players = msg.players;
        renderPlayers();
      }
      break;
    case 'next':
      if (boot.seat) {
        location.assign(`/g/${boot.id}/next`);
      } else {
        location.assign(`/g/${msg.game}`);
      }
      break;
  }
}

function errorText(msg) {
  switch (msg.code) {
    case 'illegal':
      return t('error.illegal', { detail: msg.error });
    case 'stale': case 'not_your_turn': case 'game_over': case 'waiting': case 'forbidden': case 'rate':
      return t('error.' + msg.code);
  }
  return t('error.other', { detail: msg.error });
}

function notice(text) {
  $('notice').textContent = text;
}

// play takes the viewer's move from the board: at once, or after a
// confirmation when the viewer asked for one.
function play(move) {
  if (pending || !state) return;
  if (settings.confirm) {
    preview = move;
    render();
    $('pending-yes').focus();
    return;
  }
  sendMove(move);
}

// typed plays a move written in the game's notation, if it is one of the
// legal moves the server sent.
function typed(text) {
  if (!text) return;
  const mine = state && boot.seat && state.status === 'playing' && state.to_move === boot.seat;
  if (!mine) {
    notice(t('entry.not_now'));
    return;
  }
  const legal = state.legal || [];
  const move = legal.find((m) => m === text) ?? legal.find((m) => m.toLowerCase() === text.toLowerCase());
  if (!move) {
    notice(t('entry.illegal', { move: text }));
    return;
  }
  $('move-input').value = '';
  play(move);
}

function sendMove(move) {
  if (pending || !state) return;
  const id = nextMessage++;
  if (send({ type: 'move', id, ply: state.moves.length, move })) {
    pending = id;
    notice('');
    render();
  }
}

function show(s) {
  const ended = state && state.status !== 'over' && s.status === 'over';
  state = s;
  preview = null;
  clocks.update(s.clock);
  render();
  if (ended && settings.sound) sound.end();
}

// announce says what was just played, for screen readers and for the
// opponent's page.
function announce(event) {
  if (event.kind !== 'move') return;
  if (event.seat !== boot.seat) {
    notice('');
    if (settings.sound && state.status !== 'over') sound.move();
  }
  const text = mod.eventText ? mod.eventText(event, state, t)
    : t('announce.move', { colour: colourName(event.seat), move: event.move });
  $('announce').textContent = text;
}

function colourName(seat) {
  return t('colour.' + seat);
}

function statusText() {
  const s = state;
  if (s.status === 'over') return resultText(s);
  if (s.status === 'waiting') return boot.seat ? t('status.waiting') : t('status.waiting_watch');
  if (pending) return t('status.sending');
  const colour = colourName(s.to_move);
  if (s.players[s.to_move].computer) return t('status.thinking', { colour });
  if (!boot.seat) return t('status.to_move', { colour });
  return s.to_move === boot.seat ? t('status.your_turn', { colour }) : t('status.their_turn', { colour });
}

function resultText(s) {
  const r = s.result;
  const params = { winner: r.winner === 'none' ? '' : colourName(r.winner) };
  if (r.winner !== 'none') params.loser = colourName(r.winner === 'white' ? 'black' : 'white');
  if (s.view && s.view.score) Object.assign(params, s.view.score);
  let key = 'result.' + r.reason;
  if (r.reason === 'score' && r.winner === 'none') key = 'result.score_draw';
  let text = t(key, params);
  if (text === key) text = r.winner === 'none' ? t('result.draw') : t('result.other', params);
  if (boot.seat && r.winner !== 'none') {
    text += ' ' + (r.winner === boot.seat ? t('result.you_won') : t('result.you_lost'));
  }
  return text;
}

// playOn describes position k for playing on against the computer: any
// position before the last, and the last one of a resigned game.
function playOn(k) {
  if (!state) return null;
  const n = state.moves.length;
  if (k === n && !(state.status === 'over' && state.result?.reason === 'resign')) return null;
  const moves = state.events.filter((e) => e.kind === 'move');
  return { game: state.game, options: state.options, moves: state.moves.slice(0, k), toMove: k < n ? moves[k].seat : state.to_move };
}

// showAt draws the position after k moves, or the live game for null.
async function showAt(k) {
  if (k === null) {
    render();
    return;
  }
  if (past.version !== version) {
    const res = await fetch(`/api/games/${boot.id}/positions`);
    if (!res.ok) return;
    past = await res.json();
  }
  if (replay.viewing() !== k || !past.positions[k]) return; // moved on meanwhile
  board.update({ view: past.positions[k].view, legal: [] });
  markViewed(k);
}

function markViewed(k) {
  for (const b of $('moves').querySelectorAll('button[data-ply]')) {
    if (Number(b.dataset.ply) === k) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  }
}

function render() {
  if (!state) return;
  const mine = boot.seat && state.status === 'playing' && state.to_move === boot.seat && !pending;
  const viewing = replay.viewing();
  if (viewing === null) {
    board.update({ ...state, legal: mine && !preview ? state.legal || [] : [], preview });
  }
  $('pending').hidden = !preview;
  $('pending-text').textContent = preview ? t('confirm.move', { move: preview }) : '';
  $('status').textContent = statusText();
  document.title = (mine ? '● ' : '') + document.title.replace(/^● /, '');
  const size = (state.options || {}).size;
  $('game-options').textContent = size ? `· ${t('option.size')} ${size}` : '';
  const summary = mod.summary ? mod.summary(state, t) : '';
  $('summary').textContent = summary;
  $('summary').hidden = !summary;
  renderMoves();
  markViewed(viewing);
  renderPlayers();
  renderActions(mine);
  $('replay-banner').textContent = viewing === null ? '' : t('replay.viewing', { n: viewing, total: state.moves.length });
}

function renderMoves() {
  const list = $('moves');
  list.replaceChildren();
  const captured = state.captured || [];
  let i = 0;
  for (const event of state.events) {
    const li = document.createElement('li');
    if (event.kind !== 'move') {
      li.textContent = t('moves.' + event.kind, { colour: colourName(event.seat) });
      li.className = event.kind;
    } else {
      const n = i;
      li.dataset.ply = String(n + 1);
      li.className = event.seat;
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'move';
      b.dataset.ply = String(n + 1);
      b.textContent = mod.moveLabel ? mod.moveLabel(event.move, captured[n] || 0, t) : moveLabel(event.move, captured[n] || 0);
      li.append(b);
      i++;
    }
    list.append(li);
  }
  const last = list.lastElementChild;
  if (last) {
    last.classList.add('latest');
    last.scrollIntoView({ block: 'nearest' });
  } else {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = t('moves.none');
    list.append(li);
  }
}

function moveLabel(move, captured) {
  const text = move === 'swap' ? t('moves.swap') : move;
  return captured > 0 ? `${text} ×${captured}` : text;
}

function renderPlayers() {
  const list = $('players');
  list.replaceChildren();
  for (const seat of ['white', 'black']) {
    const p = state.players[seat];
    const li = document.createElement('li');
    li.className = `player ${seat}` + (state.to_move === seat && state.status === 'playing' ? ' to-move' : '');
    const who = p.computer ? t('players.computer', { level: p.computer })
      : !p.seated ? t('players.free') : seat === boot.seat ? t('players.you') : boot.seat ? t('players.friend') : '';
    let where = '';
    if (p.seated && seat !== boot.seat && !p.computer) {
      where = p.online ? t('players.online') : p.since ? t('players.away', { time: time(new Date(p.since)) }) : t('players.offline');
    }
    li.append(dot(seat), ` ${colourName(seat)}`);
    if (who) li.append(` (${who})`);
    if (where) {
      const span = document.createElement('span');
      span.className = 'presence ' + (p.online ? 'online' : 'away');
      span.textContent = where;
      li.append(' ', span);
    }
    list.append(li);
  }
}

function dot(seat) {
  const span = document.createElement('span');
  span.className = `dot ${seat}`;
  span.setAttribute('aria-hidden', 'true');
  return span;
}

function renderActions(mine) {
  const box = $('actions');
  box.replaceChildren();
  if (!boot.seat) return;
  if (mine && (state.legal || []).includes('swap')) {
    box.append(button(t('actions.swap'), 'swap', () => play('swap')));
  }
  if (state.status === 'playing') {
    box.append(button(t('actions.resign'), 'resign', async () => {
      if (await confirmDialog(t('actions.resign_confirm'))) send({ type: 'resign', id: nextMessage++ });
    }));
  }
  if (state.status === 'over') {
    if (state.next) {
      const a = document.createElement('a');
      a.href = `/g/${boot.id}/next`;
      a.className = 'button primary';
      a.textContent = t('actions.go_next');
      box.append(a);
    } else {
      box.append(button(t('actions.rematch'), 'rematch primary', () => send({ type: 'rematch', id: nextMessage++ })));
    }
  }
}

function button(label, cls, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

function confirmDialog(text) {
  const dialog = $('confirm');
  $('confirm-text').textContent = text;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    const onClose = () => {
      // A close event still on its way from the last question arrives
      // while this one is open: it is not the answer.
      if (dialog.open) return;
      dialog.removeEventListener('close', onClose);
      resolve(dialog.returnValue === 'yes');
    };
    dialog.addEventListener('close', onClose);
  });
}

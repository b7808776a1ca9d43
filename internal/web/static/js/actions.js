// The players' own controls: a move typed out, resigning, offering a draw,
// a takeback or a new game, answering and withdrawing offers. A watcher's
// page never loads this script; a player's loads it after the board is up.
import { button, standing } from './controls.js';
import { reasonsText } from './reasons.js';

// offerNotices are the notices of the friend's offers and answers, by the
// event's kind. The offer itself waits with its buttons among the actions,
// which may be out of view: the notice is where the eye (and a screen
// reader) looks. An offer of a new game has its terms there, and comes
// when the game is over, with the actions in view.
const offerNotices = {
  offer: { draw: 'offer.draw_from_friend', takeback: 'offer.takeback_from_friend' },
  decline: { draw: 'offer.draw_declined', takeback: 'offer.takeback_declined', rematch: 'offer.rematch_declined' },
  withdraw: { rematch: 'offer.rematch_withdrawn' },
};

// refusals are the codes of the server's refusals that have words of
// their own (error.<code>).
const refusals = new Set(['stale', 'not_your_turn', 'game_over', 'waiting', 'forbidden', 'rate', 'no_offer', 'too_late',
  'not_your_offer', 'not_over', 'no_friend', 'offer_pending', 'no_takeback', 'no_time', 'internal']);

// createActions gives render(box, mine), which puts the controls for the
// state of page into box (mine says whether it is the player's turn),
// tellOffer(event) and refused(cell), which say in the notice what an
// event of an offer, or a click that chose nothing, means to the player,
// why(reasons), which says why the server refused a move, and
// answered(msg), which says in the notice what a refusal of the player's
// message means, until something of theirs is taken.
export function createActions({ t, page, send: sendNow, play, sendMove, notice }) {
  const $ = (id) => document.getElementById(id);
  // Offline, nothing is sent, and the player is told so: only a move is
  // kept to go out once the connection is back.
  const send = (msg) => sendNow(msg) || notice(t('error.offline'));
  $('rematch-form')?.addEventListener('submit', (e) => {
    e.preventDefault();
    send({ type: 'rematch', id: page.nextMessage++, ...rematchTerms(e.target) });
  });
  $('move-form')?.addEventListener('submit', (e) => {
    e.preventDefault();
    typed($('move-input').value.trim());
  });
  // The player's name, in every game (against the computer too).
  let named; // the name last put into the box
  $('name-form')?.addEventListener('submit', (e) => {
    e.preventDefault();
    send({ type: 'name', id: page.nextMessage++, name: $('name-input').value.trim() });
  });

  function render(box, mine) {
    const input = $('name-input');
    const name = page.state.players[page.boot.seat]?.name || '';
    if (input && name !== named && document.activeElement !== input) input.value = named = name;
    if (page.state.status === 'over') {
      // A game that ended before the friend joined has nobody to play again.
      const { white, black } = page.state.players;
      if (!page.state.next && white.seated && black.seated) rematch(box);
      return;
    }
    if (mine && (page.state.legal || []).includes('swap')) {
      box.append(button(t('actions.swap'), 'swap', () => play('swap')));
    }
    if (page.state.status === 'playing') {
      box.append(button(t('actions.resign'), 'resign', async () => {
        if (await confirmDialog(t('actions.resign_confirm'))) send({ type: 'resign', id: page.nextMessage++ });
      }));
    }
    renderOffers(box);
  }

  // renderOffers puts up what the player may offer, or the offer waiting
  // for an answer: a draw, a takeback, and aborting before both have moved.
  function renderOffers(box) {
    const me = page.boot.seat;
    const offer = page.state.offer;
    const ask = (kind) => () => send({ type: 'offer', id: page.nextMessage++, kind });
    // A player's own move: not one the game was created from, nor one
    // taken back since.
    const own = (e) => e.seq > (page.state.given ?? 0);
    const moved = new Set(standing(page.state.events).filter(own).map((e) => e.seat));
    // Calling the game off ends it at once, for the friend too: ask first.
    if (moved.size < 2) {
      const question = againstComputer() ? t('actions.abort_confirm_computer') : t('actions.abort_confirm');
      box.append(button(t('actions.abort'), 'abort', async () => {
        if (await confirmDialog(question)) ask('abort')();
      }));
    }
    if (page.state.status !== 'playing') return;
    if (offer && offer.by !== me) {
      const p = document.createElement('p');
      p.className = 'offer';
      p.textContent = t(`offer.${offer.kind}_from_friend`);
      const answer = (accept) => () => send({ type: 'answer', id: page.nextMessage++, kind: offer.kind, accept });
      p.append(' ', button(t('actions.accept'), 'accept primary', answer(true)), ' ', button(t('actions.decline'), 'decline', answer(false)));
      box.append(p);
      return;
    }
    if (offer) {
      const p = document.createElement('p');
      p.className = 'offer';
      p.textContent = t(`offer.${offer.kind}_sent`);
      box.append(p);
      return;
    }
    // The computer declines every draw: no button that cannot succeed.
    if (!againstComputer()) box.append(button(t('actions.offer_draw'), 'offer-draw', ask('draw')));
    // As the server: an own move of mine since the last takeback, which
    // is final; a pass (DVONN's, always made by the rules) is none.
    const since = page.state.events.slice(page.state.events.findLastIndex((e) => e.kind === 'takeback') + 1);
    if (since.some((e) => own(e) && e.seat === me && e.move !== 'PASS')) box.append(button(t('actions.takeback'), 'takeback', ask('takeback')));
  }

  // rematchTerms reads the form of a new game's terms into a rematch
  // message's fields.
  function rematchTerms(form) {
    const f = new FormData(form);
    const options = {};
    for (const el of form.elements) {
      if (!el.name || el.name === 'clock' || el.name === 'start') continue;
      if (el.type === 'checkbox') options[el.name] = el.checked;
      else options[el.name] = Number(el.value);
    }
    const terms = { options, start: f.get('start') };
    const clock = f.get('clock');
    if (clock === '') terms.clock = null;
    else if (clock.startsWith('d')) terms.clock = { days: Number(clock.slice(1)) };
    else if (clock !== 'same') {
      const [initial, increment] = clock.split('+').map(Number);
      terms.clock = { initial_s: initial, increment_s: increment };
    }
    return terms;
  }

  // span says seconds as the server's Site.Span does: "1 min 30 s".
  function span(s) {
    const parts = [];
    if (s >= 3600) parts.push(t('clock.span_h', { hours: Math.floor(s / 3600) }));
    if (s % 3600 >= 60) parts.push(t('clock.span_min', { minutes: Math.floor((s % 3600) / 60) }));
    if (s % 60 || !parts.length) parts.push(t('clock.span_s', { seconds: s % 60 }));
    return parts.join(' ');
  }

  // termsText says what a new game would change.
  function termsText(terms) {
    const parts = [];
    const now = page.state.options || {};
    for (const [name, v] of Object.entries(terms.options || {})) {
      if (now[name] === v) continue;
      const on = page.terms?.querySelector('form').elements[name]?.type === 'checkbox' ? (v ? t('actions.yes') : t('actions.no')) : v;
      parts.push(`${t('option.' + name)}: ${on}`);
    }
    const c = terms.clock || {};
    const was = page.state.clock || {};
    const same = (c.initial_s || 0) * 1000 === (was.initial_ms || 0) && (c.increment_s || 0) * 1000 === (was.increment_ms || 0) && (c.days || 0) === (was.days || 0);
    if (!same) {
      if (c.days) parts.push(t('clock.days', { days: c.days }));
      else if (c.initial_s) parts.push(t('clock.preset', { time: span(c.initial_s), seconds: c.increment_s || 0 }));
      else parts.push(t('clock.none'));
    }
    const me = page.boot.seat;
    if (terms.white === 'random') parts.push(t('rematch.random'));
    else parts.push(t('rematch.you_play_' + (terms.white === me ? 'white' : 'black')));
    return parts.join(' · ');
  }

  // rematch puts up, once a game is over, an offer of a new game to answer
  // or waiting for an answer, or the button to offer one. Nobody is taken
  // into a new game without a click.
  function rematch(box) {
    const me = page.boot.seat;
    const offer = page.state.offer;
    const computer = againstComputer();
    // Kept by reference: once moved into the actions, a render takes it out
    // of the page until it is put back.
    page.terms ??= $('rematch-terms');
    const terms = page.terms;
    if (offer && offer.kind === 'rematch') {
      const p = document.createElement('p');
      p.className = 'offer rematch-offer-text';
      const text = termsText(offer.terms);
      if (offer.by !== me) {
        p.textContent = t('offer.rematch_from_friend', { terms: text });
        // Accepting is asking for the same new game: its ack names the game.
        const accept = () => send({ type: 'rematch', id: page.nextMessage++ });
        const decline = () => send({ type: 'answer', id: page.nextMessage++, kind: 'rematch', accept: false });
        p.append(' ', button(t('actions.accept'), 'accept primary', accept), ' ', button(t('actions.decline'), 'decline', decline));
      } else {
        p.textContent = t('offer.rematch_sent', { terms: text });
        const withdraw = () => send({ type: 'withdraw', id: page.nextMessage++, kind: 'rematch' });
        p.append(' ', button(t('actions.withdraw'), 'withdraw', withdraw));
      }
      box.append(p);
    } else {
      const label = computer ? t('actions.rematch_computer') : t('actions.rematch');
      box.append(button(label, 'rematch primary', () => send({ type: 'rematch', id: page.nextMessage++ })));
    }
    if (terms && !computer) {
      terms.hidden = false;
      box.append(terms);
    }
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

  // againstComputer says whether the other seat is the computer's.
  function againstComputer() {
    return Boolean(page.state.players[page.boot.seat === 'white' ? 'black' : 'white'].computer);
  }

  // tellOffer puts the friend's offer or answer in the notice, and takes
  // the notice away once the player has answered or the draw is agreed.
  function tellOffer(event) {
    const mine = event.seat === page.boot.seat;
    // A takeback granted: the one who asked is told, the other has seen.
    if (event.kind === 'takeback') return notice(mine ? t('offer.takeback_accepted') : '');
    // A takeback that would leave a clock without time is withdrawn by the
    // site, not by a player: both are told why.
    if (event.kind === 'withdraw' && event.move === 'takeback') {
      return notice(t(mine ? 'offer.takeback_withdrawn_mine' : 'offer.takeback_withdrawn'));
    }
    const key = offerNotices[event.kind]?.[event.move];
    if (!mine && key) notice(t(key));
    else if (key || event.kind === 'draw') notice('');
  }

  // myTurn says whether the game waits for a move of the player's.
  const myTurn = () => page.state.status === 'playing' && page.state.to_move === page.boot.seat;

  // notNow says why no move of the player's is taken just now: the friend
  // has not joined yet, or it is not their turn.
  const notNow = () => t(page.state.status === 'waiting' ? 'error.waiting' : 'entry.not_now');

  // typed plays a move written in the game's notation: at once, since
  // writing a move out and sending it is no slip of a finger for the
  // confirmation to catch. One that is none of the legal moves the server
  // sent goes to the server as written, and stays in its box to be put
  // right: its refusal says why the rules do not allow it.
  function typed(text) {
    if (!text || !page.state) return;
    if (!myTurn()) return notice(notNow());
    const legal = page.state.legal || [];
    const move = legal.find((m) => m === text) ?? legal.find((m) => m.toLowerCase() === text.toLowerCase());
    if (move) $('move-input').value = '';
    sendMove(move ?? text);
  }

  // refused explains a click on a cell of the board that chose nothing: the
  // game has not begun or it is not the player's turn, or the cell is no
  // move (a stone is there), said by the board's message key if it has
  // one of its own ({move} being the cell).
  function refused(cell, key = 'entry.illegal') {
    if (page.state.status === 'over' || page.pending || page.preview || page.replay.viewing() !== null) return;
    notice(myTurn() ? t(key, { move: cell }) : notNow());
  }

  // answered takes the server's answer to a message of the player's: a
  // refusal is put in the notice, and taken away again once something the
  // player does is taken (other notices, such as the friend's offer, stay).
  let refusal = null;
  function answered(msg) {
    if (msg.type === 'error') notice(refusal = errorText(msg));
    else if ($('notice').textContent === refusal) notice('');
  }

  // why says in the page's language why the server refused a move.
  const why = (reasons) => reasonsText(t, reasons);

  // errorText says why the server refused a message of the player's: in
  // the page's language when the refusal's code has words of its own, or
  // it gives reasons (a chat line or a name refused), else with the
  // server's words.
  function errorText(msg) {
    if (msg.code === 'illegal') return t('error.illegal', { detail: msg.reasons ? why(msg.reasons) : msg.error });
    if (refusals.has(msg.code)) return t('error.' + msg.code);
    if (msg.reasons) return t('error.refused', { detail: why(msg.reasons) });
    return t('error.other', { detail: msg.error });
  }

  // held sends what the player sent before the scripts were in (see
  // game.js), once the page is connected, before the controls are drawn,
  // which would put the name the game has into the name's box. A move
  // sent draws the page, which sends the rest first: those are not sent
  // again.
  function held() {
    for (const form of document.querySelectorAll('form[data-held]')) {
      if (!page.connected || !('held' in form.dataset)) continue;
      delete form.dataset.held;
      // The chat has a script of its own.
      if (form.id === 'chat-form') page.chat.then(() => form.requestSubmit());
      else form.requestSubmit();
    }
  }

  return { render, tellOffer, refused, why, answered, held };
}

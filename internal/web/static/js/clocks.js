// The players' clocks. The server owns time: each message brings both
// clocks as they stood when it was sent, and the page counts down from
// there with the local time elapsed since, so it never drifts further
// than one message. Under ten seconds it shows tenths; low time turns the
// clock red, beeps once if sound is on, and is announced to screen
// readers at a few thresholds, not every second.
import { low as lowSound } from './sound.js';
import { lang } from './i18n.js';

// The last ten seconds in tenths, with the language's decimal sign.
const tenths = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

const LOW_SHARE = 0.1; // of the initial time, and at most...
const LOW_MAX_MS = 30000;
const ANNOUNCE_AT = [60000, 30000, 10000];

// A move of a slow game is due at a moment, told in the reader's own
// time: "2 days 3 h left" makes them do the sum.
export const dueLong = new Intl.DateTimeFormat(lang, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const dueShort = new Intl.DateTimeFormat(lang, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
// A week or so ahead a weekday names two days: the bar gives the date.
const dueDate = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const SIX_DAYS = 6 * 24 * 3600 * 1000;

// slot(seat), when given, finds a second place for a seat's time: the
// player's bar beside the board on a phone.
export function createClocks({ t, root, announce, colourName, soundOn, mySeat, slot = () => null }) {
  let base = null; // the last clock from the server, with when it came
  let timer = null;
  let warned = {}; // seat -> thresholds already announced or sounded

  // update shows the clocks of the game's state s.
  function update(s) {
    const clock = s.clock;
    if (!clock) {
      root.hidden = true;
      stop();
      return;
    }
    root.hidden = false;
    base = { ...clock, over: s.status === 'over', at: performance.now(), wall: Date.now() };
    root.classList.toggle('slow', Boolean(clock.days));
    root.classList.remove('stale');
    draw();
    stop();
    if (clock.running) timer = setInterval(draw, clock.days ? 30000 : 100);
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  // offline stops the clocks where they stood when the connection was
  // lost and shows that they are not live: meanwhile the server may see
  // a move, a flag or the site down, and the state it sends once the
  // connection is back puts them right.
  function offline() {
    if (!base) return;
    base.stopped ??= performance.now();
    stop();
    root.classList.add('stale');
    draw();
  }

  // sent is seat's time as the server last sent it.
  function sent(seat) {
    return seat === 'white' ? base.white_ms : base.black_ms;
  }

  // left is seat's time now, or when the connection was lost. The server
  // may hold the running clock a while first (held_ms): the grace after
  // the site was down.
  function left(seat) {
    const ms = sent(seat);
    if (base.running !== seat) return ms;
    const ran = (base.stopped ?? performance.now()) - base.at - (base.held_ms || 0);
    return Math.max(0, ms - Math.max(0, ran));
  }

  function draw() {
    const rows = ['white', 'black'].map((seat) => {
      const ms = left(seat);
      const row = document.createElement('div');
      row.className = `clock ${seat}` + (base.running === seat ? ' running' : '') + (isLow(ms) ? ' low' : '');
      const name = document.createElement('span');
      name.className = 'who';
      name.textContent = colourName(seat);
      const time = document.createElement('span');
      time.className = 'time';
      time.textContent = format(ms);
      row.append(name, ' ', time);
      const due = dueAt(seat);
      if (due) {
        const note = document.createElement('small');
        note.className = 'due';
        note.textContent = t('clock.due', { when: dueLong.format(due) });
        row.append(note);
      }
      const other = slot(seat);
      if (other) mark(other, seat, ms);
      warn(seat, ms);
      return row;
    });
    root.replaceChildren(...rows);
    // Before both first moves no clock runs, slow games' too.
    const full = base.days ? base.days * 864e5 : base.initial_ms;
    if (!base.running && !base.over && full && base.white_ms === full && base.black_ms === full) {
      const note = document.createElement('small');
      note.textContent = t('clock.not_started');
      root.append(note);
    }
  }

  // dueAt is when seat's move of a slow game is due, if seat is to move.
  function dueAt(seat) {
    return base.days && base.running === seat && !base.over ? new Date(base.wall + (base.held_ms || 0) + sent(seat)) : null;
  }

  function isLow(ms) {
    if (base.days) return ms < 6 * 3600 * 1000;
    return ms < Math.min(LOW_MAX_MS, base.initial_ms * LOW_SHARE) || ms < 10000;
  }

  // warn sounds once when the viewer's own clock gets low, and announces
  // each threshold once per seat.
  function warn(seat, ms) {
    if (base.running !== seat || base.days) return;
    const done = (warned[seat] ??= new Set());
    for (const at of ANNOUNCE_AT) {
      if (ms <= at && ms > 0 && !done.has(at) && base.initial_ms > at) {
        done.add(at);
        // Heard, a figure needs its unit; a tenth is of no use to a
        // listener, and the whole second still to come is.
        announce(t('clock.announce', { colour: colourName(seat), seconds: Math.ceil(ms / 1000) }));
      }
    }
    if (seat === mySeat && isLow(ms) && !done.has('sound')) {
      done.add('sound');
      if (soundOn()) lowSound();
    }
  }

  function format(ms) {
    if (base.days) {
      // Minutes counted up: the last one is still to play, not nought.
      const minutes = Math.ceil(ms / 60000);
      if (minutes >= 1440) return t('clock.left_days', { days: Math.floor(minutes / 1440), hours: Math.floor((minutes % 1440) / 60) });
      if (minutes >= 60) return t('clock.left_hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
      return t('clock.left_minutes', { minutes });
    }
    if (ms < 10000) return tenths.format(Math.floor(ms / 100) / 10);
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600);
    const mm = String(Math.floor((s % 3600) / 60));
    const ss = String(s % 60).padStart(2, '0');
    return h > 0 ? `${h}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
  }

  // barText is what a phone's bar beside the board shows of a seat's
  // clock: it has room for the time left or, on a slow game's move, the
  // moment it is due.
  function barText(seat, ms) {
    const due = dueAt(seat);
    return due ? t('clock.due_short', { when: (ms < SIX_DAYS ? dueShort : dueDate).format(due) }) : format(ms);
  }

  // mark shows a seat's clock in el, a bar beside the board, as it stands
  // now: whether it runs and is low too, since a bar drawn anew would lack
  // them until the next tick, half a minute on a slow game, forever on a
  // finished one.
  function mark(el, seat, ms) {
    if (!base || root.hidden) return;
    ms ??= left(seat);
    el.textContent = barText(seat, ms);
    el.classList.toggle('running', base.running === seat);
    el.classList.toggle('low', isLow(ms));
    el.classList.toggle('stale', base.stopped !== undefined);
  }

  return { update, mark, offline };
}

// The players' clocks. The server owns time: each message brings both
// clocks as they stood when it was sent, and the page counts down from
// there with the local time elapsed since, so it never drifts further
// than one message. Under ten seconds it shows tenths; low time turns the
// clock red, beeps once if sound is on, and is announced to screen
// readers at a few thresholds, not every second.
import { low as lowSound } from './sound.js';

const LOW_SHARE = 0.1; // of the initial time, and at most...
const LOW_MAX_MS = 30000;
const ANNOUNCE_AT = [60000, 30000, 10000];

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
    base = { ...clock, over: s.status === 'over', at: performance.now() };
    root.classList.toggle('slow', Boolean(clock.days));
    draw();
    stop();
    if (clock.running) timer = setInterval(draw, clock.days ? 30000 : 100);
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  function left(seat) {
    const ms = seat === 'white' ? base.white_ms : base.black_ms;
    return base.running === seat ? Math.max(0, ms - (performance.now() - base.at)) : ms;
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
      const other = slot(seat);
      if (other) {
        other.textContent = time.textContent;
        other.classList.toggle('running', base.running === seat);
        other.classList.toggle('low', isLow(ms));
      }
      warn(seat, ms);
      return row;
    });
    root.replaceChildren(...rows);
    if (!base.running && !base.over && base.initial_ms && base.white_ms === base.initial_ms && base.black_ms === base.initial_ms) {
      const note = document.createElement('small');
      note.textContent = t('clock.not_started');
      root.append(note);
    }
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
        announce(t('clock.announce', { colour: colourName(seat), time: format(ms) }));
      }
    }
    if (seat === mySeat && isLow(ms) && !done.has('sound')) {
      done.add('sound');
      if (soundOn()) lowSound();
    }
  }

  function format(ms) {
    if (base.days) {
      const hours = Math.floor(ms / 3600000);
      if (hours >= 24) return t('clock.left_days', { days: Math.floor(hours / 24), hours: hours % 24 });
      return t('clock.left_hours', { hours, minutes: Math.floor((ms % 3600000) / 60000) });
    }
    if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600);
    const mm = String(Math.floor((s % 3600) / 60));
    const ss = String(s % 60).padStart(2, '0');
    return h > 0 ? `${h}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
  }

  // text is a seat's time as shown now, or '' without a clock.
  function text(seat) {
    return base && !root.hidden ? format(left(seat)) : '';
  }

  return { update, text };
}

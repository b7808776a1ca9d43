// The import page: a record pasted or chosen as a file is sent to the
// server, which checks every move; the game then replays here like any
// other, or the page says which move is wrong and why.
import { t, lang } from './i18n.js';
import { load } from './boards.js';
import { createReplay } from './replay.js';
import { fitMoves, isolated, resultLine } from './controls.js';
import { reasonsText } from './reasons.js';

// RECORD_REASONS name the messages of a record refused, so that the
// page's catalogue carries them (the server's messageKeys reads the
// scripts' strings): how it was read, at which move, an option out of
// range, and an option's name among the words; the rules' own reasons
// come with reasons.js.
export const RECORD_REASONS = ['why.record.', 'why.hgf.', 'why.import.', 'why.option.', 'option.'];

const $ = (id) => document.getElementById(id);
let replay;
let record;
let board;

export function start() {
  $('record-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (file) $('record-text').value = await file.text();
  });
  $('import-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('import-error').textContent = '';
    let res;
    try {
      res = await fetch('/api/records', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: $('record-text').value }),
      });
    } catch {
      // No answer came, so nothing was refused: the record can go again
      // once the connection is back.
      $('viewer').hidden = true;
      $('import-error').textContent = t('error.offline');
      return;
    }
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      // The game shown before is not the one that was refused.
      $('viewer').hidden = true;
      $('import-error').textContent = t('import.error', { error: refusal(body) });
      return;
    }
    await show(body);
  });
  // Until now a click would have sent the form nowhere.
  $('import-form').querySelector('button[type=submit]').disabled = false;
}

// refusal says why the server refused a record, in the page's language:
// the server's own words are English.
function refusal(body) {
  if (body.reasons) return reasonsText(t, body.reasons);
  if (body.code === 'rate') return t('error.rate');
  if (body.code === 'too_large') return t('import.too_large');
  return t('import.other');
}

async function show(body) {
  // A record without a move comes with none listed (null), not an empty
  // list.
  const rec = { ...body, moves: body.moves ?? [] };
  record = rec;
  const mod = await load(rec.game);
  board = mod.create($('board'), { t, send: null, marks: [] });
  $('viewer').hidden = false;
  $('viewer-title').textContent = [t(`game.${rec.game}.name`), localDate(rec.date)].filter(Boolean).join(' · ');
  // A record names its players, or writes "?" for one it does not know.
  // A name is what somebody wrote: shown as text, its direction its own.
  // The site's computer, which the server knows by the name the site
  // gave it, is named in the page's words, as its game's page names it.
  const players = $('viewer-players');
  players.replaceChildren();
  for (const c of ['white', 'black']) {
    if (!rec[c] || rec[c] === '?') continue;
    if (players.childNodes.length) players.append(' · ');
    const [before, after = ''] = t('import.player', { colour: t(`colour.${c}`) }).split('{name}');
    const level = rec.computer?.[c];
    players.append(before, level ? t('players.computer', { level }) : isolated(rec[c]), after);
  }
  players.hidden = !players.childNodes.length;
  // A game begun from given moves: its players played none of them.
  const given = $('viewer-given');
  given.textContent = rec.given ? t('record.note.given', { given: rec.given, next: rec.given + 1 }) : '';
  given.hidden = !rec.given;
  $('viewer-result').textContent = rec.winner ? resultLine(t, rec, rec.positions[rec.moves.length].view) : '';
  const list = $('moves');
  list.replaceChildren();
  rec.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'move';
    b.dataset.ply = String(i + 1);
    b.textContent = mod.moveLabel ? mod.moveLabel(m, 0, t) : m === 'swap' ? t('moves.swap') : m;
    li.append(b);
    list.append(li);
  });
  fitMoves(list);
  list.onclick = (e) => {
    const b = e.target.closest('button[data-ply]');
    if (b) replay.go(Number(b.dataset.ply));
  };
  replay ??= createReplay({
    t,
    count: () => record.moves.length,
    show: (k) => {
      const at = k === null ? record.moves.length : k;
      board.update({ view: record.positions[at].view, legal: [] });
      for (const b of $('moves').querySelectorAll('button[data-ply]')) {
        if (Number(b.dataset.ply) === at) b.setAttribute('aria-current', 'step');
        else b.removeAttribute('aria-current');
      }
    },
    liveText: () => t('replay.end', { total: record.moves.length }),
    playOn: (k) => (k === record.moves.length && record.winner ? null
      : { game: record.game, options: record.options, moves: record.moves.slice(0, k), toMove: record.positions[k].to_move }),
  });
  replay.go(null);
  $('viewer').scrollIntoView({ block: 'start' });
}

// localDate writes a record's date (2026-11-30) the way the page's
// language does; other dates stay as written.
function localDate(date) {
  const m = /^(\d{4})[-.](\d{2})[-.](\d{2})$/.exec(date || '');
  if (!m) return date;
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])));
}

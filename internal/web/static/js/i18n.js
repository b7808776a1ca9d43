// Translations for scripts: the page's message catalogue, embedded by the
// server in #catalog.
const source = document.getElementById('catalog');
const messages = source ? JSON.parse(source.textContent) : {};

export const lang = document.documentElement.lang || 'en';

const plurals = new Intl.PluralRules(lang);

// t looks up key and fills {name} placeholders from params. A counted
// message ({"plural": "n", "one": ..., "other": ...}, see i18n.go) takes
// the form that the CLDR rules of the page's language give for the number
// in params[plural]. A missing key shows itself, so that it gets noticed.
export function t(key, params = {}) {
  let text = messages[key] ?? key;
  if (typeof text === 'object') {
    const n = Math.abs(Number(params[text.plural]));
    text = text[Number.isNaN(n) ? 'other' : plurals.select(n)] ?? text.other;
  }
  for (const [name, value] of Object.entries(params)) {
    text = text.replaceAll('{' + name + '}', String(value));
  }
  return text;
}

// has reports whether the catalogue knows key.
export function has(key) {
  return key in messages;
}

// time formats a moment as the clock time, in the page's language, with
// the day unless it is today: a slow game's friend may be away for days.
export function time(date) {
  const day = date.toDateString() === new Date().toDateString() ? {} : { day: 'numeric', month: 'short' };
  return new Intl.DateTimeFormat(lang, { ...day, hour: '2-digit', minute: '2-digit' }).format(date);
}

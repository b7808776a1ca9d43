// Translations for scripts: the page's message catalogue, embedded by the
// server in #catalog.
const source = document.getElementById('catalog');
const messages = source ? JSON.parse(source.textContent) : {};

export const lang = document.documentElement.lang || 'en';

// t looks up key and fills {name} placeholders from params. A missing key
// shows itself, so that it gets noticed.
export function t(key, params = {}) {
  let text = messages[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.replaceAll('{' + name + '}', String(value));
  }
  return text;
}

// has reports whether the catalogue knows key.
export function has(key) {
  return key in messages;
}

// time formats a moment as the clock time, in the page's language.
export function time(date) {
  return new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }).format(date);
}

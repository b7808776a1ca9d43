// The "my games" page: a slow game's move says when it is due, in the
// reader's own time and language, as the game's own page does. The server
// knows neither.
import { t } from './i18n.js';
import { dueLong } from './clocks.js';

export function start() {
  for (const when of document.querySelectorAll('.my-game time[datetime]')) {
    when.textContent = t('clock.due', { when: dueLong.format(new Date(when.dateTime)) });
    when.parentElement.hidden = false;
  }
}

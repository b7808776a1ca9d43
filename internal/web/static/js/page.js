// Entry point of every page: draws the board pictures, wires the copy
// buttons and starts the page's own script, if it has one: a game page's
// live game, the import page's, or the my games page's.
import { t } from './i18n.js';
import { drawDiagrams, later } from './boards.js';
import { apply, load } from './settings.js';

apply(load());
drawDiagrams(document, t);

for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const input = document.getElementById(button.dataset.copy);
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

if (document.getElementById('game')) {
  later(() => import('./game.js')).then((m) => m.start());
}
if (document.getElementById('import')) {
  later(() => import('./import.js')).then((m) => m.start());
}
if (document.querySelector('.my-games')) {
  later(() => import('./mygames.js')).then((m) => m.start());
}

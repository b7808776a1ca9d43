// Entry point of every page: draws the board pictures and starts the
// page's own script, if it has one: a game page's live game, the import
// page's, or the my games page's. What only some pages need is theirs:
// every message a script here names goes into every page's catalogue.
import { t } from './i18n.js';
import { drawDiagrams, later } from './boards.js';
import { apply, load } from './settings.js';

apply(load());
drawDiagrams(document, t);

if (document.getElementById('game')) {
  later(() => import('./game.js')).then((m) => m.start());
}
if (document.getElementById('import')) {
  later(() => import('./import.js')).then((m) => m.start());
}
if (document.querySelector('.my-games')) {
  later(() => import('./mygames.js')).then((m) => m.start());
}

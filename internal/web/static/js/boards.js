// Board modules, one per game, live in boards/<game>.js. Each exports
//
//   create(element, ctx) -> { update(state) }
//
// where state is a game snapshot from the server ({view, legal, seat,
// to_move, status, ...}; diagrams pass only view; state.preview is a move
// the player chose and has yet to confirm, to be shown as such) and ctx holds
//   t(key, params)   translations
//   send(move)       plays a move, in the game's notation (game page only)
//   refused(cell)    a click on cell chose nothing; the page may say why
//                    (game page only, and only where a click is that simple)
//   marks            cell names to point at (diagrams only)
// A board draws what the server sends and offers only the moves listed in
// state.legal: it never works out the rules itself.
//
// What boards have in common lives beside them in boards/: svg.js (SVG
// elements, accessible cell names, arrows, a diagram's marks, and
// animation, held back when the viewer wants less motion) and choose.js
// (choosing a cell by pointer, sliding onto one, and by keyboard: which
// cells take the focus, and where it goes next; arrows.js, the arrow keys
// on the game page's board).
//
// A board module may also export, for the game page:
//   moveLabel(move, captured, t)  the move as the move list shows it
//                                 (default: the move, then "×n" if it captured)
//   eventText(event, state, t)    what to announce when a move is played
//                                 (default: "White plays e5.")
//   summary(state, t)             a line about the position, such as the
//                                 score, or "" for none
//
// load also brings the board's style sheet, for pages that did not know
// which board they would show.
export function load(game) {
  const href = new URL(`../css/${game}.css`, import.meta.url).href;
  if (![...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    document.head.append(link);
  }
  return later(() => import(`./boards/${game}.js`));
}

// later is a promise of the script that load imports on demand, as every
// page's script does with what it needs only later or only sometimes. A
// fetch that fails (the site going down just then) is tried again after
// a wait that doubles up to ten seconds, so that what the script brings
// (a board, a player's controls, the clocks) comes soon after the site is
// back, without a reload. A script that came but threw as it ran (a
// mistake, or a browser it does not suit) never will: the browser keeps
// it, and gives the same error again without asking the site, where a
// failed fetch gives a new one. So the same error twice is reported once,
// and the promise, as while it waits, never settles; so too once the site
// has been updated (see updated). It lives here, beside the boards'
// loading, in a script that every page imports already.
export function later(load, wait = 1000, last) {
  return load().catch((e) => new Promise((again) => e === last ? console.error(e) : updated().then((gone) => gone || setTimeout(again, wait))).then(() => later(load, Math.min(2 * wait, 10000), e)));
}

// updated tells whether the site has been updated since the page was
// made, and if so tells the player, once, with a button that reloads the
// page (nothing is lost: the games are on the server). The page asks for
// its scripts under its own version of the site, which an updated site no
// longer has: it answers 404, where a site that is down answers nothing,
// or a proxy's 502. So a failed import asks for this script again, past
// the cache; gone, the site's answer is the line that says so in the
// page's language (Site.Static).
let told;
function updated() {
  return told ??= fetch(import.meta.url, { cache: 'no-store' }).then(async (res) => {
    // Only the site's own line, which says in what language it is: a
    // proxy's "not found" of its own, a page or a line (Go's, which
    // Traefik gives for a site it cannot reach), is no words for a button.
    if (res.status !== 404 || !/^text\/plain/.test(res.headers.get('content-type')) || !res.headers.has('content-language')) return told = null; // asked again at the next failure
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'primary';
    b.textContent = await res.text();
    b.onclick = () => location.reload();
    document.getElementById('updated').append(b);
    return true;
  }).catch(() => told = null); // the fetch or its text failed: asked again at the next failure
}

// drawDiagrams draws every still picture of a board on the page.
export async function drawDiagrams(root, t) {
  for (const el of root.querySelectorAll('.diagram[data-game]')) {
    const mod = await load(el.dataset.game);
    const marks = (el.dataset.marks || '').split(/\s+/).filter(Boolean);
    mod.create(el, { t, marks, send: null }).update({ view: JSON.parse(el.dataset.view), legal: [] });
  }
}

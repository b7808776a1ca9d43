// The invitation: the friend's page takes the free seat with it, and the
// creator's page offers it to the system's share sheet. Only such pages
// load this script.
const $ = (id) => document.getElementById(id);

export async function invitation({ t, page, notice, render }) {
  const share = $('invite-share');
  if (share && navigator.share) {
    share.hidden = false;
    share.addEventListener('click', () => {
      navigator.share({ title: document.title, url: $('invite-url').value }).catch(() => {});
    });
  }
  if (page.boot.invite && keptJoinKey(page.boot.id)) {
    join(); // asked before: the answer may have been lost
  } else if (page.boot.invite && !page.boot.used) {
    // The friend takes the seat, not whatever opens the link first: link
    // checkers and previews run pages too. (The page may have heard
    // already that the seat went, and put the button away.)
    const take = $('take-seat');
    if (!take) return;
    take.hidden = false;
    take.addEventListener('click', () => { take.disabled = true; join(); }, { once: true });
  } else if (page.boot.used) {
    notice(t('join.used'));
    history.replaceState(null, '', `/g/${page.boot.id}`);
  }

  // join takes the free seat with the invitation token; the answer sets
  // the seat's cookie, and the page reloads as the player. The request
  // carries a key made once per invitation, so that asking again after a
  // lost answer gets the same seat instead of finding it taken. Refused,
  // the page goes on as a watcher's.
  async function join() {
    $('status').textContent = t('join.joining');
    const key = joinKey(page.boot.id);
    let res;
    for (let attempt = 0; ; attempt++) {
      try {
        res = await fetch(`/api/games/${page.boot.id}/join`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ invite: page.boot.invite, key }),
        });
        if (res.ok || (res.status < 500 && res.status !== 429) || attempt >= 4) break;
      } catch (err) {
        if (attempt >= 4) {
          // Without a connection there is no seat to take: watch, and the
          // invitation can be opened again later, with the same key.
          refused(t('error.offline'));
          return;
        }
      }
      await new Promise((done) => setTimeout(done, 1000 * 2 ** attempt));
    }
    if (res.ok) {
      location.replace(`/g/${page.boot.id}`);
      return; // the page is going away
    }
    const body = await res.json().catch(() => ({}));
    history.replaceState(null, '', `/g/${page.boot.id}`);
    if (body.code === 'seat_taken') refused(t('join.used'));
    else if (body.code === 'game_over') refused(t('join.over'));
    else if (res.status === 403) refused(t('join.bad_invite')); // the only refusal of a join that is forbidden
    else if (body.code === 'rate') refused(t('error.rate'));
    else if (res.status >= 500) refused(t('error.internal'));
    else refused(t('error.other', { detail: body.error || res.status }));
  }

  function refused(text) {
    $('take-seat')?.parentElement.remove();
    notice(text);
    render(); // the status line says the game's state again
  }
}

// keptJoinKey is the key this browser joined game id with, if any.
function keptJoinKey(id) {
  try {
    return localStorage.getItem(`join-key:${id}`);
  } catch {
    return null; // no storage (a private window, say)
  }
}

// joinKey is this browser's random key for the invitation of game id,
// kept so that opening the invitation again asks with the same key.
function joinKey(id) {
  const kept = keptJoinKey(id);
  if (kept) return kept;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const key = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  try {
    localStorage.setItem(`join-key:${id}`, key);
  } catch {
    // Without storage the key lasts as long as the page.
  }
  return key;
}

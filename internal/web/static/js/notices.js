// Push notices for this seat: the browser is told, through its push
// service, when it is the player's turn, when the friend has joined and
// when the game is over, even with the page closed. The browser's one
// subscription serves every game; this page only tells the server to use
// it for this game, or to stop.
const $ = (id) => document.getElementById(id);

export function wireNotices({ t, gameId }) {
  const box = $('notices');
  if (!box) return;
  box.hidden = false;
  const note = $('notices-note');
  const memo = `bretter.push.${gameId}`;
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    note.textContent = t('push.unsupported');
    $('notices-on').hidden = true;
    return;
  }
  const show = (on) => {
    $('notices-on').hidden = on;
    $('notices-off').hidden = !on;
    note.textContent = on ? t('push.on') : '';
  };
  show(!!localStorage.getItem(memo));
  // A new game, same friend, keeps the notices of the game before: the
  // server says whether this browser's subscription came along.
  if (!localStorage.getItem(memo) && Notification.permission === 'granted') {
    carried().catch(() => {});
  }
  async function carried() {
    const sub = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
    if (!sub) return;
    const res = await fetch(`/api/games/${gameId}/push?endpoint=${encodeURIComponent(sub.endpoint)}`);
    if (res.ok && (await res.json()).subscribed) {
      localStorage.setItem(memo, sub.endpoint);
      show(true);
    }
  }
  // Once refused, the browser no longer asks: only its own settings can
  // allow notices again, and the player is told where.
  if (Notification.permission === 'denied') note.textContent = t('push.denied');

  $('notices-on').addEventListener('click', async () => {
    const answer = await Notification.requestPermission();
    if (answer !== 'granted') {
      // 'default': the question was put away unanswered, and may be asked again.
      note.textContent = answer === 'denied' ? t('push.denied') : '';
      return;
    }
    try {
      const reg = await navigator.serviceWorker.register('/sw.js');
      await navigator.serviceWorker.ready;
      const sub = (await reg.pushManager.getSubscription()) || await reg.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: await siteKey(),
      });
      const res = await fetch(`/api/games/${gameId}/push`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ subscription: sub.toJSON() }),
      });
      if (!res.ok) throw new Error(String(res.status));
      localStorage.setItem(memo, sub.endpoint);
      show(true);
    } catch {
      note.textContent = t('push.unsupported');
    }
  });

  $('notices-off').addEventListener('click', async () => {
    const endpoint = localStorage.getItem(memo);
    await fetch(`/api/games/${gameId}/push`, {
      method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ endpoint }),
    });
    localStorage.removeItem(memo);
    show(false);
  });
}

// siteKey is the site's public key as the push manager wants it.
async function siteKey() {
  const { key } = await (await fetch('/api/push/key')).json();
  const raw = atob(key.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

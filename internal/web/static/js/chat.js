// Chat between the two players. Chat lines come whole with the first
// state and then one by one; every text is set as text, never as markup.
import { isolated } from './controls.js';

export function createChat({ t, page, send, notice }) {
  const $ = (id) => document.getElementById(id);
  const list = $('chat-lines');
  list?.setAttribute('aria-relevant', 'additions');
  const input = $('chat-input');
  const mySeat = page.boot.seat;
  let lines = [];
  // The line sent last and not answered yet, with the connection it went
  // out on: it stays in the box until the server has taken it.
  let sent = null;

  $('chat-form')?.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    // A second Enter while the line is on its way sends it once.
    if (!text || (text === sent?.text && sent.socket === page.socket)) return;
    const id = page.nextMessage++;
    // Offline, the line stays in the box to be sent again.
    if (!send({ type: 'chat', id, text })) {
      notice(t('error.offline'));
      return;
    }
    sent = { id, text, socket: page.socket };
  });

  // writer names whoever wrote from seat as they are called now: a line
  // keeps only its seat, and shows the name its writer gives later too,
  // as it does once the page is loaded again.
  const writer = (seat) => (seat === mySeat ? t('chat.you') : page.state?.players[seat]?.name || t('colour.' + seat));

  function item(line) {
    const li = document.createElement('li');
    li.className = line.seat === mySeat ? 'mine' : 'theirs';
    const name = document.createElement('b');
    name.dataset.seat = line.seat;
    // The name and the line are the players' writing, isolated from the
    // site's words and from each other.
    name.append(isolated(writer(line.seat)));
    li.append(name, ': ', isolated(line.text));
    return li;
  }

  function scroll() {
    list.scrollTop = list.scrollHeight; // the list scrolls, never the page
  }

  return {
    // answered takes the server's answer to a message of the page's: the
    // line taken leaves the box, unless the player has written on since;
    // a line refused stays there.
    answered(msg) {
      if (msg.id !== sent?.id) return;
      if (msg.type === 'ack' && input.value.trim() === sent.text) input.value = '';
      sent = null;
    },
    // reset takes the chat of a full state, sent on every reconnection
    // (the states of a takeback or a join carry none: lines are never
    // taken away). The list is drawn anew only when it holds other lines.
    reset(state) {
      const chat = state.chat;
      if (!list || !chat || (chat.length === lines.length && chat.every((l, i) => l.seq === lines[i].seq))) return;
      lines = chat;
      list.replaceChildren(...lines.map(item));
      scroll();
    },
    // The list is a live region: a line added is read out, so only that
    // line is put in, or a screen reader would read the whole chat again.
    add(line) {
      if (!list || lines.some((l) => l.seq === line.seq)) return;
      lines = [...lines, line];
      list.append(item(line));
      scroll();
    },
    // names puts the players' names as they are now on the lines drawn.
    // A name is changed where it stands, which the list, reading out only
    // lines added, does not read out again.
    names() {
      for (const b of list?.querySelectorAll('b[data-seat] bdi') ?? []) {
        const name = writer(b.parentElement.dataset.seat);
        if (b.textContent !== name) b.firstChild.data = name;
      }
    },
  };
}

// Chat between the two players, and each player's name. Chat lines come
// whole with the first state and then one by one; every text is set as
// text, never as markup.
export function createChat({ t, send, mySeat, who }) {
  const $ = (id) => document.getElementById(id);
  const list = $('chat-lines');
  let lines = [];

  $('chat-form')?.addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('chat-input');
    const text = input.value.trim();
    if (!text) return;
    send({ type: 'chat', text });
    input.value = '';
  });
  $('name-form')?.addEventListener('submit', (e) => {
    e.preventDefault();
    send({ type: 'name', name: $('name-input').value.trim() });
  });

  function draw() {
    if (!list) return;
    list.replaceChildren(...lines.map((line) => {
      const li = document.createElement('li');
      li.className = line.seat === mySeat ? 'mine' : 'theirs';
      const name = document.createElement('b');
      name.textContent = line.seat === mySeat ? t('chat.you') : who(line.seat);
      li.append(name, ': ', line.text);
      return li;
    }));
    list.scrollTop = list.scrollHeight; // the list scrolls, never the page
  }

  return {
    // reset takes the chat and the players of a full state.
    reset(state) {
      if (state.chat) {
        lines = state.chat;
        draw();
      }
      const input = $('name-input');
      if (input && document.activeElement !== input) input.value = state.players[mySeat]?.name || '';
    },
    add(line) {
      if (lines.some((l) => l.seq === line.seq)) return;
      lines = [...lines, line];
      draw();
    },
  };
}

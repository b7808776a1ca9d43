// The viewer's settings, kept in this browser: confirm moves, sound, high
// contrast, coordinates. They apply to every page as classes on <html>.
const KEY = 'bretter.settings';

const defaults = {
  // Confirming each move guards against a slip of the finger, so it is on
  // by default where a finger is the pointer.
  confirm: window.matchMedia('(pointer: coarse)').matches,
  sound: false,
  contrast: false,
  coords: true,
  chat: true,
  flip: false, // the board seen from the other side
};

export function load() {
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
  } catch {
    return { ...defaults };
  }
}

export function save(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Private windows may refuse storage: the settings last for this page.
  }
  apply(settings);
}

export function apply(settings) {
  const root = document.documentElement.classList;
  root.toggle('contrast', settings.contrast);
  root.toggle('no-coords', !settings.coords);
  root.toggle('no-chat', !settings.chat);
  root.toggle('flipped', settings.flip);
}

// wire connects the checkboxes of a settings panel, if the page has one.
export function wire(onChange = () => {}) {
  const settings = load();
  apply(settings);
  for (const box of document.querySelectorAll('input[data-setting]')) {
    box.checked = !!settings[box.dataset.setting];
    box.addEventListener('change', () => {
      settings[box.dataset.setting] = box.checked;
      save(settings);
      onChange(settings);
    });
  }
  return settings;
}

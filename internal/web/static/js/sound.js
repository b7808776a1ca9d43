// Short sounds made on the spot with Web Audio: nothing to download.
let audio = null;

function tone(freq, start, length) {
  audio ??= new AudioContext();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.001, audio.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + start + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(audio.currentTime + start);
  osc.stop(audio.currentTime + start + length + 0.02);
}

export function move() {
  tone(660, 0, 0.08);
}

export function end() {
  tone(523, 0, 0.15);
  tone(784, 0.16, 0.25);
}

export function low() {
  tone(880, 0, 0.1);
  tone(880, 0.15, 0.1);
}

/**
 * A short two-note chime drawn by the Web Audio API: no sound file to fetch. Browsers let a page
 * play sound only after a click on it, so the operator's click that turns the sound on also
 * prepares it (`prepareChime`); after a reload, the first click anywhere in the console does.
 */
let context: AudioContext | null = null;

export function prepareChime() {
  if (typeof AudioContext === 'undefined') return;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume().catch(() => {});
}

export function playChime() {
  if (context?.state !== 'running') return;
  const start = context.currentTime;
  for (const [i, frequency] of [880, 660].entries()) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.2, start + i * 0.18 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.18 + 0.3);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start + i * 0.18);
    oscillator.stop(start + i * 0.18 + 0.32);
  }
}

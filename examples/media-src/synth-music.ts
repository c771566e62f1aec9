// "music-loop.m4a" before encoding: an 8-second, 120 BPM loop over Am9 – Fmaj7 – Cmaj7 – G6, with a
// soft pad, a round bass, a quiet pluck arpeggio, a gentle kick and light hi-hat ticks. Every note is
// written into a circular buffer (release tails wrap to the start), so the loop has no seam.
import { seededRandom } from './random.ts';
import { normalizePeak } from './wav.ts';

export const MUSIC_RATE = 48_000;
const BEAT = 0.5;
const BAR = BEAT * 4;
const LOOP_SECONDS = BAR * 4;
const LENGTH = MUSIC_RATE * LOOP_SECONDS;

const midiToHz = (note: number) => 440 * 2 ** ((note - 69) / 12);

/** Chords as MIDI notes: the pad voicing, then the bass root. */
const PROGRESSION = [
  { pad: [57, 64, 67, 71, 72], bass: 45 }, // Am9
  { pad: [53, 60, 64, 65, 69], bass: 41 }, // Fmaj7
  { pad: [55, 60, 64, 67, 71], bass: 48 }, // Cmaj7
  { pad: [55, 59, 62, 64, 67], bass: 43 }, // G6
];

type Voice = (t: number) => number;

function addNote(out: Float32Array[], start: number, seconds: number, pan: number, voice: Voice): void {
  const first = Math.round(start * MUSIC_RATE);
  const count = Math.round(seconds * MUSIC_RATE);
  const left = Math.cos(((pan + 1) * Math.PI) / 4);
  const right = Math.sin(((pan + 1) * Math.PI) / 4);
  for (let i = 0; i < count; i++) {
    const sample = voice(i / MUSIC_RATE);
    const index = (first + i) % LENGTH;
    out[0]![index]! += sample * left;
    out[1]![index]! += sample * right;
  }
}

/** A warm pad tone: a few soft harmonics of two slightly detuned oscillators, slow attack and release. */
function padVoice(hz: number, hold: number): Voice {
  return (t) => {
    const attack = Math.min(1, t / 0.45);
    const release = t > hold ? Math.exp(-(t - hold) / 0.35) : 1;
    let sum = 0;
    for (let h = 1; h <= 4; h++) {
      sum += (Math.sin(2 * Math.PI * hz * h * t) + Math.sin(2 * Math.PI * hz * 1.003 * h * t + h)) / (h * h);
    }
    const breathe = 0.85 + 0.15 * Math.sin(2 * Math.PI * 0.5 * t);
    return sum * attack * release * breathe * 0.05;
  };
}

function bassVoice(hz: number): Voice {
  return (t) => {
    const envelope = Math.min(1, t / 0.01) * Math.exp(-t / 0.5);
    return (Math.sin(2 * Math.PI * hz * t) + 0.25 * Math.sin(4 * Math.PI * hz * t)) * envelope * 0.32;
  };
}

function pluckVoice(hz: number): Voice {
  return (t) => {
    const envelope = Math.min(1, t / 0.004) * Math.exp(-t / 0.16);
    return (
      (Math.sin(2 * Math.PI * hz * t) + 0.3 * Math.sin(6 * Math.PI * hz * t) * Math.exp(-t / 0.05)) *
      envelope *
      0.09
    );
  };
}

function kickVoice(): Voice {
  return (t) => {
    // The pitch falls from 110 Hz to 45 Hz; integrating the frequency keeps the phase continuous.
    const phase = 2 * Math.PI * (45 * t + (110 - 45) * 0.03 * (1 - Math.exp(-t / 0.03)));
    return Math.sin(phase) * Math.exp(-t / 0.18) * 0.55;
  };
}

function hatVoice(random: () => number, level: number): Voice {
  let previous = 0;
  let previousHigh = 0;
  return (t) => {
    const noise = random() * 2 - 1;
    // Two first differences: a steep high-pass that leaves only a light tick.
    const high = noise - previous;
    const higher = high - previousHigh;
    previous = noise;
    previousHigh = high;
    return higher * Math.exp(-t / 0.025) * level;
  };
}

export function synthMusicLoop(): Float32Array[] {
  const out = [new Float32Array(LENGTH), new Float32Array(LENGTH)];
  const random = seededRandom(808);
  PROGRESSION.forEach((chord, bar) => {
    const barStart = bar * BAR;
    chord.pad.forEach((note, i) =>
      addNote(
        out,
        barStart,
        BAR + 1.2,
        (i / (chord.pad.length - 1)) * 1.2 - 0.6,
        padVoice(midiToHz(note), BAR),
      ),
    );
    for (const beat of [0, 1.5, 2, 3.5])
      addNote(out, barStart + beat * BEAT, 0.9, 0, bassVoice(midiToHz(chord.bass)));
    const arpeggio = [chord.pad[0]! + 12, chord.pad[2]! + 12, chord.pad[3]! + 12, chord.pad[4]! + 12];
    for (let step = 0; step < 8; step++) {
      const note = arpeggio[[0, 1, 2, 3, 2, 1, 3, 2][step]!]!;
      addNote(
        out,
        barStart + step * (BEAT / 2),
        0.7,
        step % 2 === 0 ? -0.35 : 0.35,
        pluckVoice(midiToHz(note)),
      );
    }
    for (const beat of [0, 2]) addNote(out, barStart + beat * BEAT, 0.6, 0, kickVoice());
    for (let step = 0; step < 8; step++) {
      const accent = step % 2 === 1 ? 0.09 : 0.04;
      addNote(out, barStart + step * (BEAT / 2), 0.12, 0.25, hatVoice(random, accent));
    }
  });
  normalizePeak(out, -4);
  return out;
}

// The two sound effects: a whoosh (noise through a resonant band-pass sweeping upward, panned left
// to right) and a short, soft UI click.
import { seededRandom } from './random.ts';
import { normalizePeak } from './wav.ts';

export const SFX_RATE = 48_000;

export function synthWhoosh(): Float32Array[] {
  const seconds = 0.6;
  const length = Math.round(seconds * SFX_RATE);
  const out = [new Float32Array(length), new Float32Array(length)];
  const random = seededRandom(4242);
  // A Chamberlin state-variable filter, retuned every sample.
  let low = 0;
  let band = 0;
  const damping = 0.55;
  for (let i = 0; i < length; i++) {
    const t = i / length;
    const cutoff = 250 * (5200 / 250) ** Math.pow(t, 1.4);
    const f = 2 * Math.sin((Math.PI * cutoff) / SFX_RATE);
    const noise = random() * 2 - 1;
    low += f * band;
    const high = noise - low - damping * band;
    band += f * high;
    // Swells to a peak two-thirds through, then falls away quickly.
    const envelope = Math.pow(Math.sin(Math.PI * Math.pow(t, 0.75)), 2);
    const pan = (t * 2 - 1) * 0.8;
    out[0]![i] = band * envelope * Math.cos(((pan + 1) * Math.PI) / 4);
    out[1]![i] = band * envelope * Math.sin(((pan + 1) * Math.PI) / 4);
  }
  normalizePeak(out, -6);
  return out;
}

export function synthClick(): Float32Array[] {
  const seconds = 0.06;
  const length = Math.round(seconds * SFX_RATE);
  const out = new Float32Array(length);
  const random = seededRandom(99);
  for (let i = 0; i < length; i++) {
    const t = i / SFX_RATE;
    const tick = (random() * 2 - 1) * Math.exp(-t / 0.0008) * 0.5;
    const body = Math.sin(2 * Math.PI * 1850 * t) * Math.exp(-t / 0.006);
    const thump = Math.sin(2 * Math.PI * 420 * t) * Math.exp(-t / 0.012) * 0.6;
    out[i] = (tick + body + thump) * Math.min(1, t / 0.0003);
  }
  const channels = [out];
  normalizePeak(channels, -6);
  return channels;
}

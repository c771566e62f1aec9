// A seeded random source, so `make-media.sh` paints and synthesises the same bytes every run.

/** mulberry32: small, fast and good enough for procedural art and noise. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Smooth 1-D fractal noise in about -1..1: value noise summed over octaves. */
export function fractalNoise1d(random: () => number, octaves: number): (x: number) => number {
  const lattices = Array.from({ length: octaves }, () =>
    Array.from({ length: 1024 }, () => random() * 2 - 1),
  );
  const smooth = (t: number) => t * t * (3 - 2 * t);
  return (x: number) => {
    let sum = 0;
    let amplitude = 1;
    let frequency = 1;
    let norm = 0;
    lattices.forEach((lattice) => {
      const p = Math.abs(x * frequency);
      const i = Math.floor(p);
      const a = lattice[i % 1024]!;
      const b = lattice[(i + 1) % 1024]!;
      sum += (a + (b - a) * smooth(p - i)) * amplitude;
      norm += amplitude;
      amplitude *= 0.5;
      frequency *= 2.1;
    });
    return sum / norm;
  };
}

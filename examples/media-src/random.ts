// A seeded random source, so `make-media.sh` paints and synthesises the same bytes every run.

export { seededRandom } from '../../shared/canvas/seeded-random.ts';

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

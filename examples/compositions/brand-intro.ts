// Brand intro: the Kino mark arrives on springs inside a ring of geometric path shapes, the tagline
// types itself in, and a hard cut lands on the end card. Coral to violet, from the logo, on plum.
import {
  blurOut,
  cut,
  drift,
  dropIn,
  ellipse,
  fadeIn,
  flip,
  float,
  glow,
  group,
  image,
  maskRevealOut,
  maskWipeOut,
  music,
  path,
  pop,
  rock,
  rotateIn,
  rotateOut,
  scaleIn,
  scene,
  sfx,
  slideOut,
  spin,
  spring,
  text,
  video,
  wordByWord,
} from 'kino';
import type { Gradient } from 'kino';

const plum = '#140c1f';
const white = '#f7f2ff';
const lilac = '#b9a7d6';
const brand: Gradient = { type: 'linear', colors: ['#ff8a65', '#f0567a', '#8b5cf6'], angle: 45 };
const bouncy = spring({ stiffness: 190, damping: 11 });

const SHAPES = {
  play: 'M30 16 L86 50 L30 84 Z',
  plus: 'M42 10 H58 V42 H90 V58 H58 V90 H42 V58 H10 V42 H42 Z',
  dome: 'M8 72 A42 42 0 0 1 92 72 Z',
  wave: 'M6 50 Q 28 14 50 50 T 94 50',
};

/** A shape on the ring around the logo; `angle` in degrees, 0 = right, clockwise. */
const orbiting = (d: string, angle: number, style: { fill?: Gradient | string; stroke?: string }) => {
  const radians = (angle * Math.PI) / 180;
  return path(d, {
    x: 0.5 + 0.42 * Math.cos(radians),
    y: 0.5 + 0.42 * Math.sin(radians),
    width: 86,
    height: 86,
    rotation: angle / 4,
    fill: style.fill,
    stroke: style.stroke ? { color: style.stroke, width: 7 } : undefined,
  }).animate(
    pop({ easing: bouncy }),
    float({ distance: 8, duration: `${2.4 + angle / 360}s` }),
    rock({ amount: 8, duration: `${1.8 + angle / 720}s` }),
  );
};

const mark = scene(
  {
    duration: '3.4s',
    background: { type: 'radial', colors: ['#2a1640', plum], center: { x: 0.5, y: 0.45 }, radius: 0.75 },
    audio: [sfx('asset:whoosh.wav', { start: '0.2s', volume: 0.5 })],
  },
  [
    group({ width: 820, height: 820 }, [
      ellipse({
        width: '84%',
        height: '84%',
        stroke: { color: '#ffffff26', width: 3, dash: [10, 14] },
      }).animate(
        scaleIn({ duration: '0.9s', easing: spring({ stiffness: 90, damping: 14 }) }),
        spin({ duration: '16s', amount: 360 }),
        rotateOut({ amount: 60, duration: '0.4s' }),
      ),
      group({ stagger: '0.12s' }, [
        orbiting(SHAPES.play, -60, { fill: brand }),
        orbiting(SHAPES.plus, 20, { fill: '#f0567a' }),
        orbiting(SHAPES.dome, 120, { fill: '#8b5cf6' }),
        orbiting(SHAPES.wave, 200, { stroke: '#ff8a65' }),
      ]),
      image('asset:logo.png', { width: '56%', height: '56%', fit: 'contain' }).animate(
        pop({
          delay: '0.35s',
          duration: '0.7s',
          amount: 0.6,
          easing: spring({ stiffness: 160, damping: 10 }),
        }),
        blurOut({ duration: '0.4s' }),
      ),
    ]),
  ],
);

const tagline = scene(
  {
    duration: '3.6s',
    background: plum,
    transition: flip({ duration: '0.6s', easing: 'inOut' }),
  },
  [
    // A soft violet glow behind the words, rising slowly.
    ellipse({
      width: '110vmin',
      height: '110vmin',
      fill: { type: 'radial', colors: ['#8b5cf633', '#8b5cf600'], radius: 0.35 },
    }).animate(fadeIn({ duration: '1.2s' }), drift({ direction: 'up', distance: 50 })),
    group({ height: 560 }, [
      path(SHAPES.play, { y: 0.1, width: 120, height: 120, fill: brand }).animate(
        dropIn({ distance: 160 }),
        slideOut({ direction: 'up', duration: '0.4s' }),
      ),
      text('Make video like you write code.', {
        y: 0.5,
        width: '92%',
        font: 'display',
        size: 132,
        lineHeight: 0.98,
        letterSpacing: 0.01,
        color: white,
      }).animate(
        wordByWord({ delay: '0.3s', stagger: '0.09s', easing: bouncy }),
        maskWipeOut({ direction: 'right', duration: '0.5s' }),
      ),
      text('export default video(…)', {
        y: 0.9,
        font: 'mono',
        weight: 500,
        size: 36,
        color: lilac,
        background: { color: '#ffffff12', paddingX: 28, paddingY: 14, radius: 14 },
      }).animate(fadeIn({ delay: '1.3s' }), maskRevealOut({ direction: 'down', duration: '0.4s' })),
    ]),
  ],
);

const endCard = scene(
  {
    duration: '1.8s',
    background: plum,
    transition: cut(),
    audio: [sfx('asset:click.wav', { volume: 0.7 })],
  },
  [
    image('asset:logo.png', { y: 0.44, width: 300, height: 300, fit: 'contain' }).animate(
      rotateIn({ duration: '0.5s', amount: 120, easing: bouncy }),
      glow({ color: '#f0567a', amount: 36, delay: '0.5s', duration: '1.3s' }),
    ),
    text('kino.dev', {
      y: 0.62,
      font: 'mono',
      weight: 500,
      size: 34,
      letterSpacing: 0.08,
      color: lilac,
    }).animate(fadeIn({ delay: '0.2s' })),
  ],
);

export default video(
  { title: 'Kino brand intro', fps: 30, aspect: 'reels', background: plum },
  [mark, tagline, endCard],
  {
    audio: [music('asset:music-loop.m4a', { volume: 0.5, fadeOut: '0.8s' })],
  },
);

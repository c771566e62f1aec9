// Product launch: bold kinetic type on ink and paper, one vermilion accent. Three beats: the reveal,
// the three promises, the date.
import {
  blurIn,
  bounceIn,
  elasticIn,
  ellipse,
  fadeIn,
  flipIn,
  flipOut,
  group,
  keyframes,
  line,
  maskRevealIn,
  music,
  pop,
  rect,
  scaleIn,
  scene,
  sfx,
  shake,
  slide,
  slideFadeIn,
  slideIn,
  spring,
  text,
  video,
  wordByWord,
  zoom,
} from 'kino';

const ink = '#0b0b10';
const paper = '#f4f1ea';
const accent = '#ff4d2e';
// Text colours that keep 4.5:1 against their ground, and the accent deep enough to carry paper text.
const mutedOnPaper = '#5c5862';
const mutedOnInk = '#a19da8';
const accentDeep = '#c4301a';

// Stacks sit in design-pixel-tall groups, so their spacing is the same in every aspect.
const reveal = scene({ duration: '3.2s', background: { type: 'noise', color: ink, grain: 0.06 } }, [
  group({ height: 520 }, [
    text('Introducing', {
      y: 0.08,
      font: 'sans',
      weight: 600,
      size: 36,
      letterSpacing: 0.32,
      transform: 'uppercase',
      color: accent,
    }).animate(maskRevealIn({ duration: '0.7s' })),
    text('NOVA ONE', { y: 0.42, font: 'display', size: 230, letterSpacing: 0.02, color: paper }).animate(
      wordByWord({ duration: '0.7s', stagger: '0.18s', delay: '0.25s', easing: 'snappy' }),
    ),
    line({ x: 0.2, y: 0.72, x2: 0.8, y2: 0.72, stroke: { color: accent, width: 4 }, cap: 'round' }).keyframes(
      {
        progress: keyframes(['0.7s', 0], ['1.5s', 1, 'smooth']),
      },
    ),
    text('Sound, reshaped.', {
      y: 0.9,
      font: 'serif',
      italic: true,
      weight: 400,
      size: 58,
      color: paper,
    }).animate(blurIn({ delay: '1.2s', duration: '0.8s' })),
  ]),
]);

const promises = ['Lighter.', 'Louder.', 'Longer.'];

const features = scene(
  {
    duration: '3.2s',
    background: paper,
    transition: slide({ direction: 'left', duration: '0.5s', easing: 'snappy' }),
    audio: [sfx('asset:whoosh.wav', { volume: 0.55 })],
  },
  [
    rect({ x: 0, y: 0.5, anchor: 'left', width: 14, height: '100%', box: 'frame', fill: accent }).animate(
      slideIn({ direction: 'left', duration: '0.5s' }),
    ),
    // Concentric rings at the right edge, like a speaker cone: decoration that stays behind the words.
    ...[70, 48, 26].map((size, i) =>
      ellipse({
        x: 0.96,
        y: 0.5,
        box: 'frame',
        width: `${size}vmin`,
        height: `${size}vmin`,
        fill: i === 2 ? accent : undefined,
        stroke: i === 2 ? undefined : { color: '#0b0b1018', width: 3 },
      }).animate(
        // The solid centre, last in, lands with a bounce; the rings around it spring open.
        i === 2
          ? bounceIn({ delay: '0.2s', duration: '0.9s' })
          : scaleIn({
              delay: `${0.1 * i}s`,
              duration: '0.9s',
              easing: spring({ stiffness: 120, damping: 16 }),
            }),
      ),
    ),
    group({ height: 600, stagger: '0.16s' }, [
      ...promises.map((word, i) =>
        text(word, {
          x: 0.04,
          y: 0.12 + i * 0.28,
          anchor: 'left',
          align: 'left',
          font: 'display',
          size: 190,
          color: ink,
        }).animate(slideFadeIn({ direction: 'up', distance: 60, delay: '0.2s', easing: 'snappy' })),
      ),
      text('40-hour battery, 212 g', {
        x: 0.04,
        y: 0.97,
        anchor: 'left',
        align: 'left',
        font: 'mono',
        weight: 500,
        size: 36,
        color: mutedOnPaper,
      }).animate(flipIn({ direction: 'up', delay: '0.9s' }), flipOut({ direction: 'up', duration: '0.4s' })),
    ]),
  ],
);

const launchDate = scene(
  {
    duration: '3.4s',
    background: { type: 'radial', colors: ['#1b1b24', ink], center: { x: 0.5, y: 0.45 }, radius: 0.7 },
    transition: zoom({ duration: '0.6s', easing: 'inOut' }),
    audio: [sfx('asset:click.wav', { start: '0.9s', volume: 0.8 })],
  },
  [
    group({ height: 460 }, [
      text('NOVA ONE', { y: 0.22, font: 'display', size: 170, color: paper }).animate(
        elasticIn({ duration: '1.2s' }),
      ),
      text('Available May 12', {
        y: 0.62,
        font: 'sans',
        weight: 700,
        size: 44,
        color: paper,
        background: { color: accentDeep, paddingX: 36, paddingY: 18, radius: 'pill' },
      }).animate(
        pop({ delay: '0.8s', easing: spring({ stiffness: 220, damping: 12 }) }),
        shake({ delay: '1.8s', distance: 10 }),
      ),
      text('novaaudio.com', { y: 0.93, font: 'mono', size: 36, color: mutedOnInk }).animate(
        fadeIn({ delay: '1.4s', duration: '0.8s' }),
      ),
    ]),
  ],
);

export default video(
  { title: 'Nova One launch', fps: 30, aspect: 'reels', background: ink },
  [reveal, features, launchDate],
  {
    audio: [music('asset:music-loop.m4a', { volume: 0.5, loop: true, fadeIn: '0.3s', fadeOut: '1.2s' })],
  },
);

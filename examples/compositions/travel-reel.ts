// Travel reel: full-bleed pictures with slow Ken Burns moves, a clip of the sea, and quiet editorial
// type laid over soft gradients so it stays legible on any frame.
import {
  clip,
  crossFade,
  drift,
  fadeIn,
  fadeOut,
  float,
  group,
  image,
  kenBurns,
  maskWipeIn,
  music,
  rect,
  scene,
  sfx,
  slideFadeIn,
  slideFadeOut,
  text,
  video,
  wipe,
} from 'kino';

const warmWhite = '#fbf7f0';
const sand = '#e9c9a0';

/** A dark fade over the lower part of the frame, for type. */
const shade = (from: number) =>
  rect({
    box: 'frame',
    width: '100%',
    height: '100%',
    fill: { type: 'linear', colors: ['#00000000', '#00000000', '#0a0612cc'], stops: [0, from, 1], angle: 90 },
  });

/**
 * A kicker line over a title, bottom-left in the safe area. The group is a fixed number of design
 * pixels tall, so the two lines keep their spacing in every aspect.
 */
const caption = (label: string, title: string) =>
  group({ x: 0, y: 1, anchor: 'bottom-left', height: 210, stagger: '0.15s' }, [
    text(label, {
      x: 0,
      y: 0.1,
      anchor: 'left',
      align: 'left',
      font: 'sans',
      weight: 600,
      size: 36,
      letterSpacing: 0.24,
      transform: 'uppercase',
      color: sand,
    }).animate(slideFadeIn({ direction: 'up', distance: 20 })),
    text(title, {
      x: 0,
      y: 1,
      anchor: 'bottom-left',
      align: 'left',
      font: 'display',
      size: 132,
      color: warmWhite,
    }).animate(maskWipeIn({ direction: 'left', duration: '0.9s' })),
  ]);

const highlands = scene({ duration: '3.6s' }, [
  image('asset:photo-mountains.jpg', { box: 'frame', width: '100%', height: '100%' }).animate(
    kenBurns({ amount: 0.18, direction: 'left' }),
  ),
  shade(0.45),
  caption('Chapter 01 — The Highlands', 'Into the Quiet').animate(
    fadeIn({ delay: '0.3s', duration: '0.3s' }),
  ),
]);

const coast = scene(
  {
    duration: '3.6s',
    transition: crossFade({ duration: '0.8s', easing: 'gentle' }),
  },
  [
    clip('asset:clip-waves.mp4', { box: 'frame', width: '100%', height: '100%', volume: 0.35 }),
    shade(0.3),
    // Above the bright crests of the waves, where the footage is dark enough to read on.
    text('Where the sea begins', {
      y: 0.15,
      font: 'serif',
      italic: true,
      weight: 400,
      size: 84,
      color: warmWhite,
      textShadow: { color: '#00000066', blur: 24, y: 4 },
    }).animate(fadeIn({ delay: '0.6s', duration: '1s' }), float({ distance: 10 })),
    text('34.05° N · 8.93° W', {
      y: 0.9,
      font: 'mono',
      weight: 500,
      size: 36,
      color: warmWhite,
      background: { color: '#000000a0', paddingX: 24, paddingY: 12, radius: 'pill' },
    }).animate(slideFadeIn({ direction: 'up', delay: '1.1s' }), fadeOut({ duration: '0.4s' })),
  ],
);

const city = scene(
  {
    duration: '3.8s',
    background: { type: 'linear', colors: ['#1a1030', '#3b1d4a'], angle: 90 },
    transition: wipe({ direction: 'up', duration: '0.7s', easing: 'inOut' }),
    audio: [sfx('asset:whoosh.wav', { volume: 0.4 })],
  },
  [
    image('asset:photo-city.jpg', {
      y: 0.36,
      width: '100%',
      height: '58%',
      radius: 36,
      border: { color: '#ffffff33', width: 2 },
      shadow: { color: '#00000080', blur: 60, y: 24 },
    }).animate(kenBurns({ amount: 0.12, direction: 'right' }), drift({ distance: 16, direction: 'up' })),
    caption('Chapter 02 — After Dark', 'City Lights').animate(
      fadeIn({ delay: '0.4s', duration: '0.3s' }),
      slideFadeOut({ direction: 'down', distance: 30, duration: '0.5s' }),
    ),
  ],
);

export default video(
  { title: 'Travel reel', fps: 30, aspect: 'reels', background: '#0a0612' },
  [highlands, coast, city],
  {
    audio: [music('asset:music-loop.m4a', { volume: 0.45, loop: true, fadeIn: '0.6s', fadeOut: '1.5s' })],
  },
);

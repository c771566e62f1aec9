// Release notes: a changelog video for Kino 0.2 built from the data and developer elements: a title
// card, a terminal that installs it, code that morphs from the old API to the new, a chart with a
// spotlight and a callout on the faster bar, a Markdown list of changes and a credit.
import {
  arrow,
  callout,
  chart,
  code,
  crossFade,
  fadeIn,
  fadeOut,
  group,
  image,
  lowerThird,
  markdown,
  music,
  pop,
  progressBar,
  rect,
  scene,
  sfx,
  slideFadeIn,
  spring,
  spotlight,
  terminal,
  text,
  titleCard,
  video,
  wipe,
} from 'kino';
import type { ElementInput } from 'kino';

const ink = '#0b1020';
const dusk = '#1c1a45';
const white = '#f8fafc';
const muted = '#94a3b8';
const violet = '#a78bfa';
const amber = '#fbbf24';
const slate = '#475569';

/** Render speed of the same 1080p scene, in frames per second. */
const renderFps = { before: 38, after: 92 };

/**
 * Each scene is a column of design pixels, centred in the safe area: the same layout in every
 * aspect, so annotations can point at fixed places in it. 820 wide keeps clear of the reels rail.
 */
const column = (height: number, children: ElementInput[]) => group({ width: 820, height }, children);

/** Kicker and headline at the top of a column; the content starts 200px down. */
function heading(kicker: string, title: string) {
  return [
    text(kicker, {
      y: '0px',
      anchor: 'top',
      font: 'mono',
      size: 34,
      weight: 600,
      letterSpacing: 0.16,
      transform: 'uppercase',
      color: violet,
    }).animate(fadeIn({ duration: '400ms' })),
    text(title, {
      y: '46px',
      anchor: 'top',
      width: '100%',
      font: 'display',
      size: 92,
      color: white,
    }).animate(slideFadeIn({ direction: 'up', distance: 30, delay: '100ms', duration: '500ms' })),
  ];
}

/** A thin bar of the whole video's progress along the bottom edge, continuous across scenes. */
const progress = ({ enter = false, exit = false } = {}) =>
  progressBar({
    box: 'frame',
    y: 1,
    anchor: 'bottom',
    width: '100%',
    thickness: 8,
    rounded: false,
    fill: violet,
    track: 'rgba(255, 255, 255, 0.08)',
    enterDuration: enter ? '0.6s' : 0,
    exitDuration: exit ? '0.5s' : 0,
  });

const intro = scene({ id: 'intro', duration: '2.2s', audio: [sfx('asset:whoosh.wav', { volume: 0.5 })] }, [
  column(640, [
    image('asset:logo.png', { y: '0px', anchor: 'top', width: 150, height: 150 }).animate(
      pop({ duration: '0.6s', easing: spring({ stiffness: 220, damping: 14 }) }),
    ),
    titleCard('Kino 0.2', {
      kicker: 'Release notes',
      subtitle: 'Charts, code and terminals',
      accent: violet,
      color: white,
      y: '190px',
      anchor: 'top',
      width: '100%',
      height: '450px',
      enterDuration: '1s',
    }),
  ]),
  progress({ enter: true }),
]);

const install = scene(
  {
    id: 'install',
    duration: '2.8s',
    transition: wipe({ direction: 'left', duration: '0.5s', easing: 'inOut' }),
    // Enter, as the output prints.
    audio: [sfx('asset:click.wav', { start: '1.2s', volume: 0.45 })],
  },
  [
    column(600, [
      ...heading('01 · Upgrade', 'One command'),
      terminal({
        y: '200px',
        anchor: 'top',
        width: '100%',
        title: 'zsh — my-video',
        size: 34,
        rows: 3,
        prompt: '❯ ',
        promptColor: violet,
        startDelay: '0.3s',
        typeSpeed: 22,
        pause: '0.25s',
        session: [{ command: 'npm i kino@0.2', output: '\u001b[32m✓\u001b[0m added kino@0.2.0 in 1.4s' }],
      }).animate(slideFadeIn({ direction: 'up', distance: 30, duration: '500ms' })),
      text('No breaking changes', {
        x: '60px',
        y: '560px',
        anchor: 'left',
        font: 'sans',
        size: 36,
        weight: 600,
        color: amber,
      }).animate(fadeIn({ delay: '1.3s', duration: '400ms' })),
      // From the note up to the terminal's bottom edge, under the line that says it worked.
      arrow({
        from: { x: '470px', y: '565px' },
        to: { x: '600px', y: '490px' },
        curve: -0.4,
        color: amber,
        thickness: 5,
        start: '1.4s',
      }),
    ]),
    progress(),
  ],
);

const api = scene(
  {
    id: 'api',
    duration: '2.8s',
    transition: wipe({ direction: 'up', duration: '0.5s', easing: 'inOut' }),
  },
  [
    column(730, [
      ...heading('02 · New API', 'Charts are one call'),
      code(
        [
          "import { custom } from 'kino';",
          '',
          'const values = [12, 18, 27];',
          'const bars = custom(drawBars);',
        ].join('\n'),
        {
          y: '200px',
          anchor: 'top',
          width: '100%',
          language: 'typescript',
          theme: 'tokyo-night',
          size: 30,
          accent: violet,
          window: { title: 'story.ts' },
          highlight: [4],
          steps: [
            {
              // The import and the call change; the data line stays put and slides.
              code: [
                "import { chart } from 'kino';",
                '',
                'const values = [12, 18, 27];',
                "const bars = chart('bar', {",
                "  labels: ['Q1', 'Q2', 'Q3'],",
                "  series: [{ name: 'Sales', values }],",
                '});',
              ].join('\n'),
              at: '1.2s',
              highlight: [1, '4-7'],
            },
          ],
        },
      ).animate(slideFadeIn({ direction: 'up', distance: 30, duration: '500ms' })),
      text('Before', {
        y: '700px',
        font: 'sans',
        size: 36,
        weight: 600,
        color: muted,
        duration: '1.5s',
      }).animate(fadeIn({ delay: '300ms', duration: '300ms' }), fadeOut({ duration: '250ms' })),
      text('After', {
        y: '700px',
        font: 'sans',
        size: 36,
        weight: 600,
        color: violet,
        start: '1.55s',
      }).animate(slideFadeIn({ direction: 'up', distance: 16, duration: '400ms' })),
    ]),
    progress(),
  ],
);

const speed = scene(
  {
    id: 'speed',
    duration: '3.2s',
    transition: crossFade({ duration: '0.4s' }),
    audio: [sfx('asset:click.wav', { start: '1.7s', volume: 0.45 })],
  },
  [
    column(780, [
      ...heading('03 · Faster', 'Renders 2.4× faster'),
      text('frames per second, same 1080p scene', {
        y: '170px',
        anchor: 'top',
        font: 'sans',
        size: 34,
        color: muted,
      }).animate(fadeIn({ delay: '300ms', duration: '400ms' })),
      chart('bar', {
        y: '260px',
        anchor: 'top',
        width: '100%',
        height: '520px',
        labels: ['Kino 0.1', 'Kino 0.2'],
        // One series per version, stacked, so each bar takes its own colour.
        series: [
          { name: '0.1', values: [renderFps.before, 0], color: slate },
          { name: '0.2', values: [0, renderFps.after], color: violet },
        ],
        stacked: true,
        legend: 'none',
        size: 34,
        radius: 14,
        buildDelay: '0.3s',
        buildDuration: '0.9s',
        stagger: '0.2s',
      }),
      // Where the chart draws the 0.2 bar in this 820 × 780 column (its layout is in design pixels
      // too): a box for the spotlight and the callout to find by id.
      rect({ id: 'new-bar', x: '492px', y: '341px', anchor: 'top-left', width: 263, height: 378 }),
      spotlight({ target: 'new-bar', shape: 'rect', padding: 20, radius: 26, dim: 0.72, start: '1.5s' }),
      callout(`Up from ${renderFps.before} fps`, {
        target: 'new-bar',
        x: '230px',
        y: '420px',
        accent: amber,
        start: '1.7s',
      }),
    ]),
    progress(),
  ],
);

const notes = scene(
  {
    id: 'notes',
    duration: '2.8s',
    transition: crossFade({ duration: '0.5s' }),
  },
  [
    column(560, [
      ...heading('04 · Also new', 'And there’s more'),
      markdown(
        [
          '- **Code** that morphs line by line',
          '- **Terminal** sessions, typed live',
          '- **Markdown** slides, block by block',
          '- **Callouts**, arrows, spotlights',
        ].join('\n'),
        {
          y: '200px',
          anchor: 'top',
          width: '700px',
          size: 40,
          accent: violet,
          reveal: { delay: '300ms', stagger: '150ms' },
        },
      ),
    ]),
    lowerThird('Maya Chen', { title: 'Release lead, Kino', accent: violet, start: '1.1s' }),
    progress({ exit: true }),
  ],
);

export default video(
  {
    title: 'Kino 0.2 release notes',
    fps: 30,
    aspect: 'reels',
    background: { type: 'radial', colors: [dusk, ink], center: { x: 0.5, y: 0.4 }, radius: 0.8 },
  },
  [intro, install, api, speed, notes],
  { audio: [music('asset:music-loop.m4a', { volume: 0.4, loop: true, fadeOut: '1s' })] },
);

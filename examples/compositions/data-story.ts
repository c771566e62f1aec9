// Data story: a year of numbers. A progress ring and a bar chart are drawn with `custom` (plain
// Canvas 2D, driven by the element's progress), labelled and annotated with ordinary elements.
import {
  clockWipe,
  custom,
  cubicBezier,
  ellipse,
  fadeIn,
  group,
  keyframes,
  line,
  maskWipeIn,
  music,
  path,
  pop,
  pulse,
  rect,
  scaleIn,
  scaleOut,
  scene,
  sfx,
  slideFadeIn,
  spring,
  text,
  video,
  wipe,
} from 'kino';
import type { CustomDrawInfo } from 'kino';

const navy = '#0b1220';
const panel = '#131c2e';
const slate = '#cbd5e1';
const dim = '#64748b';
// Secondary text: lighter than the rules and bars' dim, to keep 4.5:1 on navy and on the panels.
const dimText = '#94a3b8';
const teal = '#2dd4bf';
const amber = '#fbbf24';

const months = [
  { label: 'Jan', users: 1.2 },
  { label: 'Feb', users: 1.6 },
  { label: 'Mar', users: 1.5 },
  { label: 'Apr', users: 2.3 },
  { label: 'May', users: 2.8 },
  { label: 'Jun', users: 3.4 },
];
const peak = months.reduce((best, month, i) => (month.users > months[best]!.users ? i : best), 0);
const maxUsers = 4;

const easeOutCubic = (t: number) => 1 - (1 - Math.min(1, Math.max(0, t))) ** 3;

/** Growth over `seconds` after a delay, eased, so each bar can start a little after the last. */
const grow = (info: CustomDrawInfo, delay: number, seconds: number) =>
  easeOutCubic((info.time - delay) / seconds);

function drawRing(ctx: CanvasRenderingContext2D, info: CustomDrawInfo): void {
  const size = Math.min(info.width, info.height);
  const thickness = size * 0.09;
  const radius = size / 2 - thickness / 2;
  const share = 0.78 * grow(info, 0.3, 1.4);
  ctx.lineCap = 'round';
  ctx.lineWidth = thickness;
  ctx.strokeStyle = panel;
  ctx.beginPath();
  ctx.arc(info.width / 2, info.height / 2, radius, 0, Math.PI * 2);
  ctx.stroke();
  ctx.strokeStyle = teal;
  ctx.beginPath();
  ctx.arc(info.width / 2, info.height / 2, radius, -Math.PI / 2, -Math.PI / 2 + share * Math.PI * 2);
  ctx.stroke();
}

function drawBars(ctx: CanvasRenderingContext2D, info: CustomDrawInfo): void {
  const slot = info.width / months.length;
  const barWidth = slot * 0.56;
  const corner = Math.min(barWidth * 0.18, 14);
  months.forEach((month, i) => {
    const height = (month.users / maxUsers) * info.height * grow(info, 0.4 + i * 0.12, 0.9);
    if (height <= 0) return;
    const x = slot * i + (slot - barWidth) / 2;
    ctx.fillStyle = i === peak ? teal : '#334155';
    ctx.beginPath();
    ctx.roundRect(x, info.height - height, barWidth, height, [corner, corner, 0, 0]);
    ctx.fill();
  });
}

const headline = (words: string) =>
  text(words, {
    x: 0,
    y: 0.04,
    anchor: 'top-left',
    align: 'left',
    font: 'display',
    size: 88,
    color: slate,
  });

const retention = scene({ duration: '3.4s', background: navy }, [
  headline('2025 in numbers').animate(slideFadeIn({ direction: 'up', distance: 30 })),
  group({ width: 520, height: 520, y: 0.52 }, [
    custom({ width: '100%', height: '100%' }, drawRing),
    text('78%', { y: 0.46, font: 'display', size: 150, color: slate }).animate(
      pop({ delay: '0.5s', easing: spring({ stiffness: 200, damping: 14 }) }),
    ),
    text('kept using it', { y: 0.66, font: 'sans', weight: 500, size: 36, color: dimText }).animate(
      fadeIn({ delay: '0.9s' }),
    ),
  ]),
  text('still active after 90 days', {
    y: 0.9,
    width: '70vmin',
    font: 'sans',
    weight: 500,
    size: 34,
    lineHeight: 1.3,
    color: slate,
  }).animate(slideFadeIn({ direction: 'up', distance: 20, delay: '1s' })),
]);

const growth = scene(
  {
    duration: '4.2s',
    background: navy,
    transition: wipe({ direction: 'left', duration: '0.6s', easing: cubicBezier(0.7, 0, 0.2, 1) }),
  },
  [
    headline('Monthly users (M)').animate(fadeIn()),
    group({ y: 0.58, width: '100%', height: '62%' }, [
      custom({ y: 0.44, width: '100%', height: '88%' }, drawBars),
      line({ x: 0, y: 0.88, x2: 1, y2: 0.88, stroke: { color: dim, width: 2 }, cap: 'round' }).keyframes({
        progress: keyframes([0, 0], ['0.6s', 1, 'smooth']),
      }),
      ...months.map((month, i) =>
        text(month.label, {
          x: (i + 0.5) / months.length,
          y: 0.95,
          font: 'sans',
          weight: i === peak ? 700 : 500,
          size: 34,
          color: i === peak ? teal : dimText,
        }).animate(fadeIn({ delay: `${0.4 + i * 0.12}s` })),
      ),
      // The peak's callout, placed over its bar.
      ellipse({
        x: (peak + 0.5) / months.length,
        y: 0.88 - 0.88 * (months[peak]!.users / maxUsers) - 0.06,
        width: 22,
        height: 22,
        fill: amber,
      }).animate(
        pop({ delay: '1.5s', easing: spring({ stiffness: 260, damping: 10 }) }),
        pulse({ delay: '2s', amount: 0.25 }),
      ),
      text(`Peak: ${months[peak]!.users}M`, {
        x: (peak + 0.5) / months.length,
        y: 0.88 - 0.88 * (months[peak]!.users / maxUsers) - 0.16,
        anchor: 'right',
        align: 'right',
        font: 'mono',
        weight: 600,
        size: 34,
        color: amber,
      }).animate(slideFadeIn({ direction: 'left', distance: 24, delay: '1.7s' })),
    ]),
  ],
);

const stats = [
  { value: '+42%', label: 'growth year on year' },
  { value: '3.4M', label: 'monthly users at peak' },
  { value: '4.8★', label: 'average rating' },
];

const summary = scene(
  {
    duration: '3.4s',
    background: navy,
    transition: clockWipe({ duration: '0.7s' }),
    audio: stats.map((_, i) => sfx('asset:click.wav', { start: `${0.3 + i * 0.2}s`, volume: 0.5 })),
  },
  [
    headline('The year, in short').animate(fadeIn()),
    group({ y: 0.52, width: '80vmin', height: 560, stagger: '0.2s' }, [
      ...stats.map((stat, i) =>
        group({ y: 0.16 + i * 0.34, height: 150 }, [
          rect({ width: '100%', height: '100%', radius: 24, fill: panel }),
          rect({ x: 0, anchor: 'left', width: 8, height: '56%', radius: 4, fill: i === 0 ? teal : dim }),
          text(stat.value, {
            x: 0.06,
            anchor: 'left',
            align: 'left',
            font: 'display',
            size: 88,
            color: slate,
          }),
          text(stat.label, {
            x: 0.94,
            anchor: 'right',
            align: 'right',
            font: 'sans',
            weight: 500,
            size: 34,
            color: dimText,
          }),
        ]).animate(scaleIn({ duration: '0.5s', easing: spring({ stiffness: 180, damping: 16 }) })),
      ),
    ]),
    // A sparkline that draws itself under the headline.
    path('M0 80 L20 64 L40 70 L60 40 L80 30 L100 6', {
      x: 1,
      y: 0.08,
      anchor: 'top-right',
      width: 160,
      height: 64,
      stroke: { color: teal, width: 4 },
    })
      .animate(
        maskWipeIn({ direction: 'right', delay: '0.4s', duration: '1s' }),
        scaleOut({ duration: '0.4s' }),
      )
      .keyframes({ opacity: keyframes([0, 0.6], ['1.4s', 1]) }),
  ],
);

export default video(
  { title: 'A year in numbers', fps: 30, aspect: 'reels', background: navy },
  [retention, growth, summary],
  {
    audio: [music('asset:music-loop.m4a', { volume: 0.35, loop: true, fadeOut: '1s' })],
  },
);

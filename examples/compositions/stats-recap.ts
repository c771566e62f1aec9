// Stats recap: a template in code. Three numbers count up under a title; a render fills in the
// numbers, their labels, the period and the accent (`kino render stats-recap --var users=52000`).
// Code reads the real values, so it can size a bar by the numbers and pick a locale-aware format.
import { counter, fadeIn, music, pop, rect, scene, slideFadeIn, template, text, video } from 'kino';

export default template(
  {
    period: { type: 'string', default: '2026 in numbers', maxLength: 32, description: 'The title.' },
    brand: { type: 'string', default: 'Kino', maxLength: 24, description: 'Shown above the title.' },
    users: { type: 'number', default: 48250, min: 0, description: 'First number: people.' },
    usersLabel: { type: 'string', default: 'new creators', maxLength: 28 },
    renders: { type: 'number', default: 2_400_000, min: 0, description: 'Second number, shown compact.' },
    rendersLabel: { type: 'string', default: 'videos rendered', maxLength: 28 },
    rating: { type: 'number', default: 4.8, min: 0, max: 5, description: 'Third number: a rating out of 5.' },
    ratingLabel: { type: 'string', default: 'average rating', maxLength: 28 },
    locale: { type: 'string', default: 'en-US', description: 'How numbers are written (a BCP 47 locale).' },
    accent: { type: 'color', default: '#2dd4bf', description: 'Numbers and bars.' },
  },
  (v) => {
    const rows = [
      { value: v.users, label: v.usersLabel, format: {}, decimals: 0 },
      { value: v.renders, label: v.rendersLabel, format: { notation: 'compact' as const }, decimals: 1 },
      { value: v.rating, label: v.ratingLabel, format: {}, decimals: 1, suffix: ' / 5' },
    ];
    return video(
      { title: `${v.brand}: ${v.period}`, fps: 30, aspect: 'reels', background: '#0b1220' },
      [
        scene({ id: 'recap', duration: '6s' }, [
          text(v.brand, {
            size: 44,
            weight: 600,
            transform: 'uppercase',
            letterSpacing: 0.2,
            color: v.accent,
            y: 0.15,
          }).animate(fadeIn({ duration: '500ms' })),
          // Anchored at its top, so a title that wraps grows down, away from the brand line.
          text(v.period, {
            size: 92,
            weight: 800,
            width: '92%',
            color: '#f8fafc',
            anchor: 'top',
            y: 0.18,
          }).animate(slideFadeIn({ direction: 'up', distance: 40, delay: '200ms' })),
          ...rows.flatMap((row, index) => {
            const y = 0.46 + index * 0.19;
            const delay = 0.6 + index * 0.35;
            return [
              rect({
                width: 12,
                height: 210,
                radius: 6,
                fill: v.accent,
                anchor: 'left',
                x: 0.1,
                y,
              }).animate(pop({ delay: `${delay}s` })),
              counter(row.value, {
                locale: v.locale,
                decimals: row.decimals,
                format: row.format,
                ...(row.suffix ? { suffix: row.suffix } : {}),
                countDelay: `${delay}s`,
                countDuration: '1.6s',
                font: 'display',
                size: 160,
                color: v.accent,
                anchor: 'left',
                x: 0.15,
                y: y - 0.022,
              }).animate(fadeIn({ delay: `${delay}s`, duration: '300ms' })),
              text(row.label, {
                size: 48,
                weight: 500,
                color: '#cbd5e1',
                anchor: 'left',
                x: 0.15,
                y: y + 0.05,
              }).animate(fadeIn({ delay: `${delay + 0.3}s` })),
            ];
          }),
        ]),
      ],
      { audio: [music('asset:music-loop.m4a', { volume: 0.45, loop: true, fadeOut: '800ms' })] },
    );
  },
);

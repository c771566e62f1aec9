// The benchmark's reference video: 1080×1920 at 30 fps with a gradient background, animated text,
// an image and shapes — a typical social video, sized by `seconds`.
import type { VideoSpec } from '../../shared/spec/schema.ts';

export function referenceSpec(seconds: number, imageSrc: string): VideoSpec {
  const sceneSeconds = 5;
  const scenes: VideoSpec['scenes'] = [];
  for (let i = 0; i * sceneSeconds < seconds; i++) {
    const duration = Math.min(sceneSeconds, seconds - i * sceneSeconds);
    scenes.push({
      duration,
      background: {
        type: 'linear',
        colors: ['#1e1b4b', '#312e81', '#0f172a'],
        angle: 120 + i * 30,
        animate: true,
      },
      transition: i === 0 ? undefined : { type: 'crossFade', duration: '0.5s' },
      elements: [
        {
          type: 'ellipse',
          x: 0.85,
          y: 0.15,
          width: 420,
          height: 420,
          fill: 'rgba(129, 140, 248, 0.35)',
          animate: [{ preset: 'float' }],
        },
        {
          type: 'rect',
          x: 0.5,
          y: 0.62,
          width: '90%',
          height: 620,
          radius: 48,
          fill: 'rgba(255,255,255,0.08)',
          animate: [{ preset: 'slideFadeIn' }],
        },
        {
          type: 'image',
          src: imageSrc,
          x: 0.5,
          y: 0.62,
          width: '84%',
          height: 560,
          radius: 36,
          kenBurns: true,
          animate: [{ preset: 'fadeIn', duration: '0.8s' }],
        },
        {
          type: 'text',
          text: `Chapter ${i + 1}`,
          font: 'display',
          size: 150,
          x: 0.5,
          y: 0.16,
          animate: [{ preset: 'slideFadeIn' }, { preset: 'fadeOut' }],
        },
        {
          type: 'text',
          text: 'Programmatic video, rendered fast and verified.',
          size: 56,
          weight: 500,
          width: '86%',
          x: 0.5,
          y: 0.3,
          color: '#c7d2fe',
          animate: [{ preset: 'wordByWord' }],
        },
        {
          type: 'line',
          x: 0.1,
          y: 0.92,
          x2: 0.9,
          y2: 0.92,
          stroke: { color: '#818cf8', width: 8 },
          keyframes: {
            progress: [
              { at: 0, value: 0 },
              { at: duration, value: 1 },
            ],
          },
        },
      ],
    });
  }
  return { kinoSpec: 1, fps: 30, aspect: 'reels', scenes };
}

/**
 * The reference with its two costly layers taken out (the animated gradient becomes its first colour,
 * the photo goes): text and shapes only. What is left between Kino and ffmpeg alone on this is the
 * pipeline's own cost (start-up, pixel read, yuv420p, pipe, verification), not drawing.
 */
export function lightReferenceSpec(seconds: number): VideoSpec {
  const spec = referenceSpec(seconds, 'unused.jpg');
  return {
    ...spec,
    scenes: spec.scenes.map((scene) => ({
      ...scene,
      background: '#1e1b4b',
      elements: (scene.elements ?? []).filter((element) => element.type !== 'image'),
    })),
  };
}

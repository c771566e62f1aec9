// The element benchmark's frames (issue 17): 1080×1920, a 40-line highlighted TypeScript block above
// a 12-bar chart, against the same background without them. The code varies line by line
// so the tokenizer and the drawing see real work, not one line repeated.
import type { VideoSpec } from '../../shared/spec/schema.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function fortyLines(): string {
  const lines = ['import { render } from "./engine";', ''];
  for (let i = 0; lines.length < 39; i++) {
    lines.push(`export async function step${i}(frames: Frame[]) {`);
    lines.push(`  const ms = frames.reduce((sum, f) => sum + f.ms, 0);`);
    lines.push(`  return ms > ${100 * (i + 1)} ? Math.round(ms) : retry("s${i}");`);
    lines.push('}');
  }
  return [...lines.slice(0, 39), 'export default { step0, step1 };'].join('\n');
}

type Element = VideoSpec['scenes'][number]['elements'] extends (infer E)[] | undefined ? E : never;

function frameWith(elements: Element[]): VideoSpec {
  return {
    kinoSpec: 1,
    fps: 30,
    aspect: 'reels',
    background: { type: 'linear', colors: ['#0f172a', '#1e1b4b'], angle: 160 },
    scenes: [
      {
        duration: 2,
        elements: [...elements],
      },
    ],
  };
}

/** The measured frame: code and chart, each shown built from the first frame (no entrance). */
export function codeAndChartSpec(): VideoSpec {
  return frameWith([
    {
      type: 'code',
      code: fortyLines(),
      language: 'typescript',
      theme: 'github-dark',
      lineNumbers: true,
      highlight: ['12-14'],
      size: 16,
      y: 0,
      anchor: 'top',
      width: '100%',
    },
    {
      type: 'chart',
      kind: 'bar',
      labels: MONTHS,
      series: [{ name: 'Renders', values: [12, 19, 24, 31, 28, 35, 41, 38, 47, 52, 49, 60] }],
      buildDuration: 0,
      y: 1,
      anchor: 'bottom',
      width: '100%',
      height: '20%',
    },
  ]);
}

/** The code block alone: its cold-start cost is shiki's. */
export function codeOnlySpec(): VideoSpec {
  const code = codeAndChartSpec().scenes[0]!.elements!.find((element) => element.type === 'code');
  return frameWith([code!]);
}

/** The same frame without the elements: what is subtracted to get their own cost. */
export function baselineSpec(): VideoSpec {
  return frameWith([]);
}

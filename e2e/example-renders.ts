// Shared body of the example render matrix: every registered example, in one format, in every
// aspect, at draft quality, each verified by ffprobe inside the render pipeline and checked again here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASPECT_NAMES } from '../shared/spec/sizes.ts';
import { FORMAT_EXTENSIONS } from '../shared/output/formats.ts';
import type { OutputFormat } from '../shared/output/formats.ts';
import { projectContext } from '../main/engine/project-context.ts';
import { renderVideo } from '../main/engine/render-video.ts';
import { defaultProjectDir, loadProject } from '../main/project/load.ts';
import { resolveRenderInput } from '../main/project/resolve-input.ts';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { REPO_ROOT } from './cli-helpers.ts';

export async function exampleKeys(): Promise<string[]> {
  const project = await loadProject(defaultProjectDir());
  return [...project.compositions.keys()].sort();
}

/**
 * The examples that render whole, in mp4 only: the format long renders are made in. Every other
 * example, and every example in the other formats (gif, transparent, mov), renders its first 12
 * frames in every aspect: enough to prove it in each format's pipeline (with audio, alpha, palette
 * and the aspect's size) without the matrix's time growing by a full render per example, aspect and
 * format. Whole renders in the other formats are covered by the frame encoder's own tests.
 */
const WHOLE_RENDER_KEYS = new Set([
  'brand-intro',
  'chart-story',
  'code-walkthrough',
  'data-story',
  'launch',
  'product-explainer',
  'product-launch',
  'promo-square',
  'stats',
  'travel',
  'travel-reel',
]);
const QUICK_RENDER_FRAMES = 12;

export function describeExampleRenders(format: OutputFormat, keys: string[]): void {
  describe(`every example as ${format}, in every aspect (draft)`, () => {
    let work: string;
    beforeAll(() => {
      work = mkdtempSync(join(tmpdir(), `kino-examples-${format}-`));
    });
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    for (const key of keys) {
      for (const aspect of ASPECT_NAMES) {
        it(`${key} · ${aspect}`, async () => {
          const input = await resolveRenderInput(key, REPO_ROOT);
          const outputPath = join(work, `${key}-${aspect}${FORMAT_EXTENSIONS[format]}`);
          const result = await renderVideo({
            model: input.model,
            project: await projectContext(input.project),
            outputPath,
            options: {
              format,
              quality: 'draft',
              aspect,
              frames: format === 'mp4' && WHOLE_RENDER_KEYS.has(key) ? undefined : QUICK_RENDER_FRAMES,
            },
          });
          expect(result.output.ok).toBe(true);
          const probe = await probeFile(outputPath);
          expect(probe.video?.width).toBe(result.width);
          expect(probe.video?.height).toBe(result.height);
          // Orientation follows the aspect: reels/portrait tall, landscape wide, square square.
          const ratio = result.width / result.height;
          if (aspect === 'landscape') expect(ratio).toBeGreaterThan(1.7);
          else if (aspect === 'square') expect(ratio).toBeCloseTo(1, 2);
          else expect(ratio).toBeLessThan(0.9);
          expect(probe.video?.hasAlpha).toBe(format === 'transparent' || format === 'mov');
          rmSync(outputPath, { force: true });
        });
      }
    }
  });
}

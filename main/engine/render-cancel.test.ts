// A render stops when it is told to, also while ffmpeg keeps up with every frame: the workspace and
// the API cancel through signals fired from other events (an IPC message, a client that went away),
// which only run when the draw loop lets the event loop turn.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegToolsOrWarn } from '../ffmpeg/tools.fixture.ts';
import { compositionSource, resolveRenderInput } from '../project/resolve-input.ts';
import { projectContext } from './project-context.ts';
import { renderVideo } from './render-video.ts';

const found = ffmpegToolsOrWarn('the render cancel test');

describe.runIf(found)('a render told to stop', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kino-cancel-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('stops within moments of a signal fired by a timer, on one thread, and keeps nothing', async () => {
    // 160×90 frames (21.6 kB in yuv420p) fit the pipe's buffer, and 20 ms of drawing each leaves
    // ffmpeg time to empty it: every write completes at once, so the pipe never makes the loop wait.
    const specPath = join(work, 'slow.ts');
    await writeFile(
      specPath,
      `import { video, scene, text, custom } from 'kino';
const busyWait = (ms: number) => { const end = Date.now() + ms; while (Date.now() < end) { /* busy */ } };
export default video({ fps: 30, aspect: { width: 160, height: 90 } }, [
  scene({ duration: '10s' }, [
    text('Stop me'),
    custom((ctx, info) => {
      busyWait(20);
      ctx.fillStyle = '#2a6';
      ctx.fillRect(info.frame % info.width, 0, 20, 20);
    }),
  ]),
]);
`,
    );
    const input = await resolveRenderInput(specPath, work);
    const project = await projectContext(input.project);
    const controller = new AbortController();
    let abortedAt = 0;
    let framesAtAbort = 0;
    let framesDone = 0;
    const outputPath = join(work, 'out', 'small.mp4');
    await mkdir(join(work, 'out'));
    const rendering = renderVideo({
      model: input.model,
      composition: compositionSource(input),
      project,
      outputPath,
      options: { format: 'mp4', quality: 'standard', concurrency: 1 },
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.stage === 'rendering') framesDone = progress.framesDone;
      },
    });
    setTimeout(() => {
      abortedAt = performance.now();
      framesAtAbort = framesDone;
      controller.abort(new Error('stopped by the test'));
    }, 300);
    await expect(rendering).rejects.toThrow('stopped by the test');
    const stoppedAfter = performance.now() - abortedAt;
    // The timer fired while frames were still being drawn (300 of them), not after the last one.
    expect(abortedAt).toBeGreaterThan(0);
    expect(framesAtAbort).toBeLessThan(300);
    expect(stoppedAfter).toBeLessThan(1000);
    expect(await readdir(join(work, 'out'))).toEqual([]);
  });
});

// One measured render in its own process, so peak RSS belongs to this render alone.
// Usage: node render-once.ts <spec-or-key> <output> [--raw <frames.rgba> | --raw-yuv <frames.yuv> |
//   --quality <q>] [--threads <n>]
//   --raw: draw every frame and append it to a raw RGBA file instead of encoding (for the
//   ffmpeg-alone comparison, and to time drawing by itself); --raw-yuv: the same frames as the
//   yuv420p planes a render pipes.
import { open } from 'node:fs/promises';
import { Yuv420pConverter } from '../encoder/yuv420p/yuv420p-kernel.ts';
import { yuv420pBytes } from '../encoder/yuv420p/yuv420p-reference.ts';
import { DrawingSession } from '../engine/drawing-session.ts';
import { projectContext } from '../engine/project-context.ts';
import { renderVideo } from '../engine/render-video.ts';
import { resolveForOutput } from '../engine/output-video.ts';
import { compositionSource, resolveRenderInput } from '../project/resolve-input.ts';

const argv = process.argv.slice(2);
const threadsAt = argv.indexOf('--threads');
const threads = threadsAt >= 0 ? Number(argv.splice(threadsAt, 2)[1]) : undefined;
const [specPath, outputPath, flag, flagValue] = argv;
if (!specPath || !outputPath) {
  throw new Error('usage: render-once.ts <spec.json> <output> [--raw <file> | --quality <q>]');
}
const rawPath = flag === '--raw' || flag === '--raw-yuv' ? flagValue : undefined;
const started = performance.now();
const input = await resolveRenderInput(specPath, process.cwd());
const project = await projectContext(input.project);
const options = {
  format: 'mp4' as const,
  quality: flag === '--quality' && flagValue === 'high' ? ('high' as const) : ('standard' as const),
};

if (rawPath) {
  const session = await DrawingSession.open({
    model: input.model,
    project,
    resolve: (model) => resolveForOutput(model, options),
  });
  const video = session.video;
  const file = await open(rawPath, 'w');
  const converter = flag === '--raw-yuv' ? new Yuv420pConverter() : undefined;
  const planes = new Uint8Array(yuv420pBytes(video.size.width, video.size.height));
  let drawMs = 0;
  for (let frame = 0; frame < video.durationFrames; frame++) {
    const t = performance.now();
    await session.draw(frame);
    const pixels = session.rgba();
    drawMs += performance.now() - t;
    await file.write(
      converter ? converter.convert(pixels, video.size.width, video.size.height, planes) : pixels,
    );
  }
  await file.close();
  session.close();
  process.stdout.write(
    JSON.stringify({
      frames: video.durationFrames,
      width: video.size.width,
      height: video.size.height,
      fps: video.fps,
      drawMs,
      wallMs: performance.now() - started,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
    }) + '\n',
  );
} else {
  const result = await renderVideo({
    model: input.model,
    composition: compositionSource(input),
    project,
    outputPath,
    options: { ...options, concurrency: threads },
  });
  process.stdout.write(
    JSON.stringify({
      frames: result.frames,
      drawMs: result.timings.drawMs,
      encodeWaitMs: result.timings.encodeWaitMs,
      finishMs: result.timings.finishMs,
      verifyMs: result.timings.verifyMs,
      wallMs: performance.now() - started,
      renderMs: result.timings.totalMs,
      bytes: result.output.bytes,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
    }) + '\n',
  );
}

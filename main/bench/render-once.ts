// One measured render in its own process, so peak RSS belongs to this render alone.
// Usage: node render-once.ts <spec-or-key> <output> [--raw <frames.rgba> | --quality <q>] [--threads <n>]
//   --raw: draw every frame and append it to a raw RGBA file instead of encoding (for the
//   ffmpeg-alone comparison, and to time drawing by itself).
import { open } from 'node:fs/promises';
import { drawFrame } from '../../shared/draw/frame.ts';
import { createDrawEnv, createSkiaSurface, readRgba } from '../engine/canvas-host.ts';
import { prepareCodeHighlighter } from '../engine/code-tokens.ts';
import { prepareFonts } from '../engine/fonts.ts';
import { planMedia } from '../../shared/timeline/media-plan.ts';
import { MediaSession } from '../engine/media-session.ts';
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
const rawPath = flag === '--raw' ? flagValue : undefined;
const started = performance.now();
const input = await resolveRenderInput(specPath, process.cwd());
const project = await projectContext(input.project);
const options = {
  format: 'mp4' as const,
  quality: flag === '--quality' && flagValue === 'high' ? ('high' as const) : ('standard' as const),
};

if (rawPath) {
  await prepareFonts(input.model, project);
  const video = resolveForOutput(input.model, options);
  const media = await MediaSession.open(planMedia(video), video.fps, project.media);
  const surface = createSkiaSurface(video.size.width, video.size.height);
  const env = createDrawEnv(
    video.size,
    video.fps,
    media,
    undefined,
    await prepareCodeHighlighter(input.model),
  );
  const file = await open(rawPath, 'w');
  let drawMs = 0;
  for (let frame = 0; frame < video.durationFrames; frame++) {
    const t = performance.now();
    await media.prepareFrame(frame);
    drawFrame(surface.ctx, video, frame, env);
    const pixels = readRgba(surface);
    drawMs += performance.now() - t;
    await file.write(pixels);
  }
  await file.close();
  media.close();
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

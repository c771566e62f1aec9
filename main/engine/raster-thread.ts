// A rasterising thread (a Node worker thread): mounts the render's video once as a DrawingSession
// (fonts, timeline, media, its own Skia surface) and draws the frames it is sent into the shared
// frame slots, converted to yuv420p there when the encoder takes that.
import { parentPort, workerData } from 'node:worker_threads';
import type { VideoModel } from '../../shared/spec/model.ts';
import { Yuv420pConverter } from '../encoder/yuv420p/yuv420p-kernel.ts';
import { DrawingSession } from './drawing-session.ts';
import { toThreadError } from './raster-protocol.ts';
import type { ModelSource, RasterReply, RasterRequest, RasterThreadInit } from './raster-protocol.ts';
import { resolveForOutput } from './output-video.ts';

const port = parentPort!;
const init = workerData as RasterThreadInit;
const reply = (message: RasterReply) => port.postMessage(message);

async function loadModel(source: ModelSource): Promise<VideoModel> {
  if (source.kind === 'model') return source.model;
  // Loaded only for compositions: the compiler costs a thread's start-up otherwise.
  const { LoadedComposition } = await import('../composition/load.ts');
  return (await LoadedComposition.load(source.path)).mount(source.variables);
}

try {
  const model = await loadModel(init.source);
  // The render checked fonts, media, captions and chart data before starting any thread: opening
  // finds everything resolved or cached.
  const session = await DrawingSession.open({
    model,
    project: init.project,
    resolve: (mounted) => resolveForOutput(mounted, init.output),
    videoFrames: 'relayed',
  });
  const slots = new Uint8Array(init.slots);
  const converter = init.pixelFormat === 'yuv420p' ? new Yuv420pConverter() : undefined;
  const { width, height } = session.video.size;

  // One draw per turn of the event loop: Skia's pixel buffers are freed by finalizers that run on
  // such a turn, and messages arrive in batches, so drawing a batch at once would hold every frame
  // it read (8 MB each) until the batch ends.
  const pending: RasterRequest[] = [];
  const drawNext = () => {
    const request = pending.shift();
    if (!request) return;
    try {
      const started = performance.now();
      session.drawRelayed(request.frame, request.videos);
      const pixels = session.rgba();
      const offset = request.slot * init.frameBytes;
      // The read is the frame's only copy: it is converted straight into its slot, or copied there
      // as it is. The converter refuses a frame or slot of another size; RGBA is checked here, as a
      // frame of another size would run into the next slot, which ffmpeg may be reading.
      if (converter) {
        converter.convert(pixels, width, height, slots.subarray(offset, offset + init.frameBytes));
      } else {
        if (pixels.byteLength !== init.frameBytes) {
          throw new Error(`drew ${pixels.byteLength} bytes for a ${init.frameBytes}-byte frame slot`);
        }
        slots.set(pixels, offset);
      }
      // Skia's buffer cannot be transferred: the one frame asked for in RGBA travels as a copy.
      const rgba = request.rgba ? pixels.slice() : undefined;
      const drawn: RasterReply = {
        type: 'drawn',
        frame: request.frame,
        slot: request.slot,
        drawMs: performance.now() - started,
        rgba,
      };
      port.postMessage(drawn, rgba ? [rgba.buffer] : []);
    } catch (error) {
      reply({ type: 'failed', error: toThreadError(error) });
    }
    if (pending.length > 0) setImmediate(drawNext);
  };
  port.on('message', (request: RasterRequest) => {
    if (pending.push(request) === 1) setImmediate(drawNext);
  });
  reply({ type: 'ready', width, height, frames: session.framesTotal });
} catch (error) {
  reply({ type: 'failed', error: toThreadError(error) });
}

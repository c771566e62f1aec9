// A render split into chunks reports as one render: its frames are the sums of its chunks', and its
// ETA comes from the chunks' own estimates (each chunk's render measures its frame rate).
import type { ChunkFrames, ChunkProgress, JobProgress } from './job-store.ts';

/** A chunk's ETA of 0.0 s (rounded) with frames left: it is under this, not unknown. */
const MIN_CHUNK_ETA_SECONDS = 0.05;

/**
 * How long the chunks still take together: the frames left over the frame rate of every chunk
 * drawing now (a chunk not started yet waits for a free worker, so the same workers draw it), and
 * never less than the slowest running chunk's own estimate. Null until some chunk with frames left
 * knows its rate; 0 once every frame is drawn.
 */
export function chunksEtaSeconds(chunks: readonly ChunkFrames[], framesLeft: number): number | null {
  let rate = 0;
  let longest = 0;
  for (const chunk of chunks) {
    const left = chunk.framesTotal - chunk.framesDone;
    if (left <= 0 || chunk.etaSeconds === undefined || chunk.etaSeconds === null) continue;
    const eta = Math.max(chunk.etaSeconds, MIN_CHUNK_ETA_SECONDS);
    rate += left / eta;
    longest = Math.max(longest, eta);
  }
  if (framesLeft <= 0) return 0;
  if (rate === 0) return null;
  return Math.round(Math.max(framesLeft / rate, longest) * 10) / 10;
}

/**
 * A render's progress with one chunk's frames updated: the frames of every chunk so far are kept in
 * `chunks`, and the job's counts are their sums, so progress adds up across workers.
 */
export function sumChunkProgress(previous: JobProgress | undefined, chunk: ChunkProgress): JobProgress {
  const chunks: ChunkFrames[] =
    previous?.chunks?.length === chunk.count
      ? [...previous.chunks]
      : Array.from({ length: chunk.count }, () => ({ framesDone: 0, framesTotal: 0 }));
  chunks[chunk.index] = {
    framesDone: chunk.framesDone,
    framesTotal: chunk.framesTotal,
    etaSeconds: chunk.etaSeconds ?? null,
  };
  const framesDone = chunks.reduce((sum, each) => sum + each.framesDone, 0);
  const framesTotal = Math.max(
    chunks.reduce((sum, each) => sum + each.framesTotal, 0),
    previous?.framesTotal ?? 0,
  );
  return {
    stage: 'rendering',
    framesDone,
    framesTotal,
    percent: Math.round((2 + 86 * (framesTotal > 0 ? framesDone / framesTotal : 0)) * 10) / 10,
    etaSeconds: chunksEtaSeconds(chunks, framesTotal - framesDone),
    chunks,
  };
}

// Frame and inspect requests drawn on the session the worker keeps warm: reused between requests,
// opened again for another revision or a changed media file, and always the very pixels a fresh
// session draws, a video clip's included when requests jump back and forth through it.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelElement, VideoModel } from '../../../shared/spec/model.ts';
import type { WorkspaceJob } from '../../../shared/protocol/workspace.ts';
import { FrameOutOfRangeError } from '../../engine/drawing-session.ts';
import { projectContext } from '../../engine/project-context.ts';
import type { RenderProjectContext } from '../../engine/project-context.ts';
import { makeCounterClip } from '../../media/test-clips.fixture.ts';
import { loadProject } from '../../project/load.ts';
import type { RenderProject } from '../../project/load.ts';
import { WarmSessions } from '../warm-sessions.ts';
import type { OperationContext } from './context.ts';
import { frameOperation } from './frame.ts';
import { inspectOperation } from './inspect.ts';
import type { WarmDrawing } from './warm-drawing.ts';

const REVISION = 'a'.repeat(16);

/** A 4 s scene: a counter clip over the whole frame (its frames differ), and an image on top. */
const MODEL: VideoModel = {
  kinoSpec: 1,
  fps: 30,
  aspect: { width: 320, height: 180 },
  scenes: [
    {
      duration: '4s',
      elements: [
        { type: 'clip', id: 'clip', src: 'media/counter.mp4', box: 'frame', width: '100%', height: '100%' },
        { type: 'image', id: 'dot', src: 'media/dot.png', width: 40, height: 40, x: 0.8, y: 0.2 },
      ],
    },
  ],
};

let root: string;
let project: RenderProject;
let renderProject: RenderProjectContext;
const held: WarmSessions<WarmDrawing>[] = [];

function writeDot(color: string): void {
  const canvas = createCanvas(8, 8);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = color;
  ctx.fillRect(0, 0, 8, 8);
  writeFileSync(join(root, 'media', 'dot.png'), canvas.toBuffer('image/png'));
}

function sessions(): WarmSessions<WarmDrawing> {
  const created = new WarmSessions<WarmDrawing>({
    keepAfter: (error) => error instanceof FrameOutOfRangeError,
  });
  held.push(created);
  return created;
}

function context(
  job: WorkspaceJob,
  warm: WarmSessions<WarmDrawing>,
  sourceRevision = REVISION,
  model = MODEL,
): OperationContext {
  return {
    job,
    source: join(root, 'video.json'),
    modules: [],
    sourceRevision,
    model: structuredClone(model),
    remount: async () => structuredClone(model),
    project,
    renderProject,
    resultsDir: join(root, 'results'),
    signal: new AbortController().signal,
    progress: () => undefined,
    sessions: warm,
  };
}

/** Draws `frame` on `warm` (a fresh cache: a fresh session) and hashes the PNG written. */
async function frameHash(
  warm: WarmSessions<WarmDrawing>,
  frame: number,
  sourceRevision = REVISION,
): Promise<string> {
  const result = await frameOperation(
    context({ operation: 'frame', frameIndex: frame }, warm, sourceRevision),
  );
  return createHash('sha256').update(readFileSync(result.frame.path)).digest('hex');
}

const freshHash = (frame: number) => frameHash(sessions(), frame);

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kino-warm-frames-')));
  mkdirSync(join(root, 'assets'));
  mkdirSync(join(root, 'media'));
  writeFileSync(join(root, 'kino.json'), JSON.stringify({ name: 'warm', assetsDir: 'assets' }));
  await makeCounterClip(join(root, 'media'), {
    seconds: 4,
    fps: 30,
    width: 160,
    height: 90,
    name: 'counter.mp4',
  });
  writeDot('#ff0000');
  project = await loadProject(root);
  renderProject = await projectContext(project);
});

afterEach(() => {
  for (const warm of held.splice(0)) warm.closeAll();
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('warm workspace sessions', () => {
  it('draws every frame on one session, as a fresh session draws it, jumping back and forth in a clip', async () => {
    const warm = sessions();
    // On through (decoded, not sought), back, a jump past the seek distance, back, on.
    const frames = [10, 40, 20, 100, 5, 90, 119];
    const warmHashes: string[] = [];
    for (const frame of frames) warmHashes.push(await frameHash(warm, frame));
    expect(warm.stats).toEqual({ opened: 1, reused: frames.length - 1, held: 1 });
    const fresh: string[] = [];
    for (const frame of frames) fresh.push(await freshHash(frame));
    expect(warmHashes).toEqual(fresh);
    // The clip is what differs between these frames.
    expect(new Set(warmHashes).size).toBe(frames.length);
  });

  it('keeps the session when a frame is refused as outside the timeline', async () => {
    const warm = sessions();
    await frameHash(warm, 3);
    await expect(frameHash(warm, 120)).rejects.toThrow(FrameOutOfRangeError);
    await frameHash(warm, 4);
    expect(warm.stats).toEqual({ opened: 1, reused: 2, held: 1 });
  });

  it('opens a new session for another source revision, closing the old one', async () => {
    const warm = sessions();
    const before = await frameHash(warm, 30);
    const after = await frameHash(warm, 30, 'b'.repeat(16));
    expect(warm.stats).toEqual({ opened: 2, reused: 0, held: 1 });
    expect(after).toBe(before);
  });

  it('sees a media file changed on disk: the next frame is drawn from the new file', async () => {
    const warm = sessions();
    const red = await frameHash(warm, 15);
    writeDot('#0000ff');
    try {
      const blue = await frameHash(warm, 15);
      expect(warm.stats).toMatchObject({ opened: 2, reused: 0 });
      expect(blue).not.toBe(red);
      expect(blue).toBe(await freshHash(15));
    } finally {
      writeDot('#ff0000');
    }
  });

  it('does not keep an inspect session that drew without a missing file, so the file is seen once it exists', async () => {
    const warm = sessions();
    const model: VideoModel = structuredClone(MODEL);
    const later: ModelElement = {
      type: 'image',
      id: 'later',
      src: 'media/later.png',
      width: 40,
      height: 40,
      x: 0.2,
      y: 0.2,
    };
    model.scenes[0]!.elements!.push(later);
    const inspect = async () => {
      const result = await inspectOperation(
        context({ operation: 'inspect', frameIndex: 12 }, warm, REVISION, model),
      );
      return createHash('sha256').update(readFileSync(result.frame!.path)).digest('hex');
    };
    const without = await inspect();
    expect(warm.stats).toEqual({ opened: 1, reused: 0, held: 0 });
    writeFileSync(join(root, 'media', 'later.png'), readFileSync(join(root, 'media', 'dot.png')));
    try {
      const withImage = await inspect();
      expect(withImage).not.toBe(without);
      expect(warm.stats).toEqual({ opened: 2, reused: 0, held: 1 });
    } finally {
      rmSync(join(root, 'media', 'later.png'));
    }
  });

  it('inspects on its own warm session, reporting the elements each request draws', async () => {
    const warm = sessions();
    const inspect = (frame: number) =>
      inspectOperation(context({ operation: 'inspect', frameIndex: frame }, warm));
    const first = await inspect(12);
    const second = await inspect(12);
    await frameHash(warm, 12);
    expect(warm.stats).toEqual({ opened: 2, reused: 1, held: 2 });
    const keys = (result: typeof first) => result.frame?.visible.map((element) => element.key);
    expect(keys(first)).toEqual(['s0/e0', 's0/e1']);
    expect(keys(second)).toEqual(keys(first));
  });
});

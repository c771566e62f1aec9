import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../ffmpeg/binaries.ts';
import { runTool } from '../ffmpeg/run.ts';
import {
  atempoChain,
  audioMixGraph,
  audioMixIsAudible,
  completeAudioMixPlan,
  dropSoundlessTracks,
} from './audio-mix.ts';
import type { AudioMixPlan, AudioMixTrack } from './audio-mix.ts';
import { FrameEncoder } from './frame-encoder.ts';

function track(overrides: Partial<AudioMixTrack> = {}): AudioMixTrack {
  return {
    path: '/media/a.wav',
    startSeconds: 0,
    sourceStartSeconds: 0,
    loop: false,
    volume: 1,
    fadeInSeconds: 0,
    fadeOutSeconds: 0,
    rate: 1,
    ...overrides,
  };
}

describe('atempoChain', () => {
  it('splits rates outside 0.5..2 into a chain of in-range steps', () => {
    expect(atempoChain(1)).toEqual([]);
    expect(atempoChain(1.5)).toEqual(['atempo=1.5']);
    expect(atempoChain(4)).toEqual(['atempo=2', 'atempo=2']);
    expect(atempoChain(3)).toEqual(['atempo=2', 'atempo=1.5']);
    expect(atempoChain(0.25)).toEqual(['atempo=0.5', 'atempo=0.5']);
    expect(atempoChain(0.3)).toEqual(['atempo=0.5', 'atempo=0.6']);
    expect(() => atempoChain(0)).toThrow(/positive/);
  });
});

describe('audioMixGraph', () => {
  const mix = (tracks: AudioMixTrack[], durationSeconds = 4) => audioMixGraph({ durationSeconds, tracks }, 1);

  it('has nothing to mix without tracks, or with tracks that never sound in the video', () => {
    expect(mix([])).toBeUndefined();
    expect(mix([track({ startSeconds: 5 }), track({ volume: 0 })])).toBeUndefined();
    expect(audioMixIsAudible({ durationSeconds: 4, tracks: [track({ startSeconds: 5 })] })).toBe(false);
    expect(audioMixIsAudible({ durationSeconds: 4, tracks: [track({ startSeconds: 5 }), track()] })).toBe(
      true,
    );
  });

  it('seeks into the source with -ss and places the track with adelay on both channels', () => {
    const graph = mix([track({ startSeconds: 1.25, sourceStartSeconds: 2 })])!;
    expect(graph.inputArgs).toEqual(['-ss', '2', '-protocol_whitelist', 'file', '-i', 'file:/media/a.wav']);
    expect(graph.filterGraph).toContain('adelay=delays=1250|1250');
    expect(graph.filterGraph).toContain('aresample=48000');
    expect(graph.filterGraph).toContain('apad=whole_len=192000,atrim=end_sample=192000');
  });

  it('skips into the source for a track that started before the video', () => {
    const graph = mix([track({ startSeconds: -1, sourceStartSeconds: 0.5, rate: 2 })])!;
    expect(graph.inputArgs[1]).toBe('2.5');
    expect(graph.filterGraph).not.toContain('adelay');
  });

  it('loops with -stream_loop from the start, and with aloop over the rest of the source otherwise', () => {
    // Both loops are bounded: an endless input or aloop made ffmpeg 4.1 grow by gigabytes a second.
    const fromStart = mix([track({ loop: true })])!.inputArgs;
    expect(fromStart.slice(0, 3)).toEqual(['-stream_loop', '-1', '-t']);
    expect(Number(fromStart[3])).toBeGreaterThan(0);
    const fromMiddle = mix([track({ loop: true, sourceStartSeconds: 1, sourceDurationSeconds: 3 })])!;
    expect(fromMiddle.filterGraph).toMatch(
      /atrim=start=1,asetpts=PTS-STARTPTS,aloop=loop=[1-9]\d*:size=96000/,
    );
    expect(() => mix([track({ loop: true, sourceStartSeconds: 1 })])).toThrow(/completeAudioMixPlan/);
  });

  it('fades out before the end of what plays', () => {
    const graph = mix([
      track({ startSeconds: 1, durationSeconds: 2, fadeInSeconds: 0.5, fadeOutSeconds: 0.5 }),
    ])!;
    expect(graph.filterGraph).toContain('atrim=duration=2,afade=t=in:st=0:d=0.5,afade=t=out:st=1.5:d=0.5');
  });

  it('cuts a track at the end of the video', () => {
    expect(mix([track({ startSeconds: 3, durationSeconds: 5 })])!.filterGraph).toContain('atrim=duration=1,');
  });

  it('mixes several tracks without amix’s 1/n level drop, under a limiter', () => {
    const graph = mix([track(), track({ path: '/media/b.wav' }), track({ path: '/media/c.wav' })])!;
    expect(graph.trackCount).toBe(3);
    expect(graph.filterGraph).toContain(
      '[mix0][mix1][mix2]amix=inputs=3:duration=longest:dropout_transition=0,volume=3,alimiter=',
    );
    expect(graph.filterGraph).toMatch(/\[aout\]$/);
  });
});

// ---- real mixes, measured ----

let dir: string;
let tonePath: string;

async function volume(file: string, start: number, seconds: number): Promise<{ mean: number; max: number }> {
  const { stderrTail } = await runTool(ffmpegPath(), [
    '-hide_banner',
    '-nostats',
    '-ss',
    String(start),
    '-t',
    String(seconds),
    '-i',
    file,
    '-map',
    '0:a',
    '-af',
    'volumedetect',
    '-f',
    'null',
    '-',
  ]);
  const read = (name: string) =>
    Number(/:\s*(-?[0-9.]+|-inf) dB/.exec(stderrTail.find((l) => l.includes(name)) ?? '')?.[1] ?? NaN);
  return { mean: read('mean_volume'), max: read('max_volume') };
}

/** Renders a tiny video carrying the mix; mov keeps the audio as PCM, so levels are exact. */
async function renderMix(name: string, plan: AudioMixPlan, format: 'mov' | 'mp4' = 'mov'): Promise<string> {
  const fps = 30;
  const totalFrames = Math.round(plan.durationSeconds * fps);
  const outputPath = join(dir, `${name}.${format}`);
  const encoder = FrameEncoder.start({
    outputPath,
    format,
    quality: 'draft',
    width: 64,
    height: 64,
    fps,
    totalFrames,
    audio: plan,
  });
  const frame = new Uint8Array(64 * 64 * 4).fill(255);
  for (let i = 0; i < totalFrames; i++) await encoder.writeFrame(frame);
  await encoder.finish();
  return outputPath;
}

const SILENT = -80;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kino-mix-'));
  tonePath = join(dir, 'tone.wav');
  await runTool(ffmpegPath(), [
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=44100:duration=1',
    '-ac',
    '1',
    tonePath,
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('rendered mix', () => {
  it('puts a track starting at 1.0 s after a silent first second, in mp4 as in mov', async () => {
    for (const format of ['mov', 'mp4'] as const) {
      const file = await renderMix(
        `start-${format}`,
        { durationSeconds: 2.5, tracks: [track({ path: tonePath, startSeconds: 1 })] },
        format,
      );
      expect((await volume(file, 0, 0.98)).max).toBeLessThan(SILENT);
      const sounding = await volume(file, 1.02, 0.95);
      expect(sounding.mean).toBeGreaterThan(-30);
      expect((await volume(file, 2.05, 0.4)).max).toBeLessThan(SILENT);
    }
  });

  it('keeps a track at the same level when mixed with another', async () => {
    const alone = await renderMix('alone', { durationSeconds: 2, tracks: [track({ path: tonePath })] });
    const mixed = await renderMix('mixed', {
      durationSeconds: 2,
      tracks: [track({ path: tonePath }), track({ path: tonePath, startSeconds: 1.2, volume: 0.5 })],
    });
    const a = await volume(alone, 0.1, 0.8);
    const b = await volume(mixed, 0.1, 0.8);
    expect(Math.abs(a.mean - b.mean)).toBeLessThan(0.3);
    // The second track at half volume: about 6 dB below the first.
    const second = await volume(mixed, 1.25, 0.7);
    expect(a.mean - second.mean).toBeGreaterThan(5);
    expect(a.mean - second.mean).toBeLessThan(7);
  });

  it('keeps loud overlapping tracks under 0 dBFS', async () => {
    // Each track peaks near -2 dBFS, so together they would reach about +4 dBFS.
    const loudTone = join(dir, 'loud.wav');
    await runTool(ffmpegPath(), [
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=1,volume=7',
      '-ac',
      '1',
      loudTone,
    ]);
    const single = await renderMix('single', {
      durationSeconds: 1,
      tracks: [track({ path: loudTone, volume: 1.3 })],
    });
    expect((await volume(single, 0, 1)).max).toBeGreaterThan(-2.5);
    const loud = await renderMix('loud', {
      durationSeconds: 1,
      tracks: [track({ path: loudTone, volume: 1.3 }), track({ path: loudTone, volume: 1.3 })],
    });
    const level = await volume(loud, 0, 1);
    expect(level.max).toBeLessThan(0);
    expect(level.max).toBeGreaterThan(-1.5);
  });

  it('loops a short source to the end of the video', async () => {
    const file = await renderMix('loop', {
      durationSeconds: 3,
      tracks: [track({ path: tonePath, loop: true })],
    });
    for (const start of [0.2, 1.2, 2.2]) expect((await volume(file, start, 0.6)).mean).toBeGreaterThan(-30);
  });

  it('plays twice as fast at rate 2, so a 1 s source ends at 0.5 s', async () => {
    const file = await renderMix('rate', {
      durationSeconds: 1,
      tracks: [track({ path: tonePath, rate: 2 })],
    });
    expect((await volume(file, 0.05, 0.4)).mean).toBeGreaterThan(-30);
    expect((await volume(file, 0.55, 0.4)).max).toBeLessThan(SILENT);
  });

  it('fades out at the source end once its length is known', async () => {
    const plan = await completeAudioMixPlan({
      durationSeconds: 2,
      tracks: [track({ path: tonePath, fadeOutSeconds: 0.5 })],
    });
    expect(plan.tracks[0]?.sourceDurationSeconds).toBeCloseTo(1, 2);
    const file = await renderMix('fade', plan);
    const before = await volume(file, 0.1, 0.3);
    const fading = await volume(file, 0.8, 0.18);
    expect(before.mean - fading.mean).toBeGreaterThan(6);
  });

  // Issue 12: an "m4a" that is an HLS playlist naming a file elsewhere was mixed into the output.
  it('refuses a playlist or ffconcat file dressed as audio before ffmpeg can follow it', async () => {
    // An mp3 segment: ffmpeg's HLS demuxer takes it (it refuses a .wav one by its extension).
    const secret = join(dir, 'secret.mp3');
    await runTool(ffmpegPath(), ['-f', 'lavfi', '-i', 'sine=duration=1', secret]);
    const playlist = join(dir, 'music.m4a');
    await writeFile(
      playlist,
      `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile://${secret}\n#EXT-X-ENDLIST\n`,
    );
    const concat = join(dir, 'music.mp3');
    await writeFile(concat, `ffconcat version 1.0\nfile '${secret}'\n`);
    for (const path of [playlist, concat]) {
      const error = await renderMix('playlist', { durationSeconds: 1, tracks: [track({ path })] }).catch(
        (e: unknown) => e,
      );
      expect(error, path).toMatchObject({ code: 'media_unsafe_format' });
    }
  });

  it('pins each input to the demuxer the gate judged', async () => {
    const plan = await completeAudioMixPlan({ durationSeconds: 1, tracks: [track({ path: tonePath })] });
    expect(plan.tracks[0]!.demuxer).toBe('wav');
    expect(audioMixGraph(plan, 1)!.inputArgs).toEqual([
      '-protocol_whitelist',
      'file',
      '-f',
      'wav',
      '-i',
      `file:${tonePath}`,
    ]);
  });

  it('names a missing or non-audio source', async () => {
    await expect(
      completeAudioMixPlan({ durationSeconds: 1, tracks: [track({ path: join(dir, 'missing.mp3') })] }),
    ).rejects.toThrow(/missing\.mp3.* not found/);
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'not audio');
    await expect(
      completeAudioMixPlan({ durationSeconds: 1, tracks: [track({ path: text, fadeOutSeconds: 1 })] }),
    ).rejects.toThrow(/notes\.txt/);
  });
});

describe('dropSoundlessTracks', () => {
  it("drops a clip's own sound when its file has no audio stream, and keeps every other track", async () => {
    const silentClip = join(dir, 'no-audio.mp4');
    await runTool(ffmpegPath(), [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x64:rate=30:duration=1',
      '-pix_fmt',
      'yuv420p',
      silentClip,
    ]);
    const plan: AudioMixPlan = {
      durationSeconds: 1,
      tracks: [
        track({ path: silentClip, optional: true }),
        track({ path: tonePath, optional: true }),
        track({ path: tonePath }),
      ],
    };
    const kept = await dropSoundlessTracks(plan);
    expect(kept.tracks.map((t) => t.path)).toEqual([tonePath, tonePath]);
    // Before the fix the encoder asked ffmpeg for the clip's missing audio and the render failed.
    const file = await renderMix('clip-without-sound', kept, 'mp4');
    expect((await volume(file, 0.1, 0.8)).mean).toBeGreaterThan(-30);
  });
});

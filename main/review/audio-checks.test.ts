import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { VideoModel } from '../../shared/spec/model.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { loadComposition } from '../composition/load.ts';
import { projectContext } from '../engine/project-context.ts';
import { ffmpegPath } from '../ffmpeg/binaries.ts';
import { runTool } from '../ffmpeg/run.ts';
import { projectForFile } from '../project/load.ts';
import { analyzeSoundtrack, audioFindings } from './audio-checks.ts';
import type { SoundtrackAnalysis } from './audio-checks.ts';

const fixtures = fileURLToPath(new URL('../../e2e/fixtures/findings', import.meta.url));
const travelReel = fileURLToPath(new URL('../../examples/compositions/travel-reel.ts', import.meta.url));

async function analyzeFile(file: string) {
  const model = await loadComposition(file);
  const video = resolveTimeline(model);
  const project = await projectContext(await projectForFile(file));
  return { video, analysis: await analyzeSoundtrack(video, project) };
}

const fixture = (name: string) => analyzeFile(join(fixtures, `${name}.ts`));

/** The loudest sample of a file as ffmpeg's volumedetect reads it, independently of the mix. */
async function maxVolume(path: string): Promise<number> {
  const { stderrTail } = await runTool(ffmpegPath(), [
    '-hide_banner',
    '-nostats',
    '-i',
    path,
    '-af',
    'volumedetect',
    '-f',
    'null',
    '-',
  ]);
  const line = stderrTail.find((l) => l.includes('max_volume:'));
  return Number(/max_volume:\s*(-?[\d.]+)/.exec(line ?? '')?.[1]);
}

describe('analyzeSoundtrack', () => {
  it('measures the travel reel mix: full length, no silence, peaks well under full scale', async () => {
    const { video, analysis } = await analyzeFile(travelReel);
    expect(analysis).toBeDefined();
    expect(analysis!.durationSeconds).toBeCloseTo(9.5, 6);
    expect(analysis!.silences).toEqual([]);
    expect(analysis!.peakDbfs).toBeLessThan(-3);
    expect(analysis!.peakDbfs).toBeGreaterThan(-30);
    expect(analysis!.tracks.map((t) => [t.src, t.startSeconds, t.endSeconds])).toEqual([
      ['asset:music-loop.m4a', 0, 9.5],
      ['asset:whoosh.wav', 5.7, 6.3],
      ['asset:clip-waves.mp4', 2.8, 6.4],
    ]);
    expect(audioFindings(analysis, video.fps)).toEqual([]);
  });

  it('is undefined for a video without sound', async () => {
    const model: VideoModel = { kinoSpec: 1, scenes: [{ duration: 1 }] };
    const project = await projectContext(await projectForFile(join(fixtures, 'kino.json')));
    expect(await analyzeSoundtrack(resolveTimeline(model), project)).toBeUndefined();
  });

  it('measures the mix before the limiter: a full-scale source reads at full scale', async () => {
    const { analysis } = await fixture('audio_peak.trigger');
    const source = await maxVolume(join(fixtures, 'assets', 'tone-full-scale.wav'));
    expect(source).toBeGreaterThan(-0.05);
    // The encoder's limiter holds the output at about -0.45 dBFS; the source level shows through here.
    expect(analysis!.peakDbfs).toBeCloseTo(source, 1);
  });

  it('measures a quiet source at its level', async () => {
    const { analysis } = await fixture('audio_silence.clean');
    const source = await maxVolume(join(fixtures, 'assets', 'tone-quiet.wav'));
    expect(analysis!.peakDbfs).toBeCloseTo(source, 1);
    expect(analysis!.peakDbfs).toBeCloseTo(-12, 1);
  });
});

describe('audio_silence', () => {
  it('flags the silent end after a short track stops, with the fix', async () => {
    const { video, analysis } = await fixture('audio_silence.trigger');
    expect(analysis!.silences).toEqual([{ startSeconds: 0.5, endSeconds: 3 }]);
    const findings = audioFindings(analysis, video.fps);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      code: 'audio_silence',
      severity: 'warning',
      startFrame: 15,
      endFrame: 90,
    });
    expect(findings[0]!.message).toContain('stops at 0.5 s');
    expect(findings[0]!.remedy).toContain('"asset:tone-quiet.wav"');
    expect(findings[0]!.remedy).toContain('set loop: true');
  });

  it('is quiet once the track loops to the end', async () => {
    const { video, analysis } = await fixture('audio_silence.clean');
    expect(analysis!.silences).toEqual([]);
    expect(audioFindings(analysis, video.fps).map((f) => f.code)).not.toContain('audio_silence');
  });
});

describe('audio_peak', () => {
  it('flags a mix at full scale over the frames it is there, with the volume to set', async () => {
    const { video, analysis } = await fixture('audio_peak.trigger');
    const findings = audioFindings(analysis, video.fps);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      code: 'audio_peak',
      severity: 'warning',
      startFrame: 0,
      endFrame: 60,
    });
    expect(findings[0]!.remedy).toContain('"asset:tone-full-scale.wav" volume 1 → 0.89');
  });

  it('is quiet once the volume is lowered as the remedy says', async () => {
    const { video, analysis } = await fixture('audio_peak.clean');
    expect(analysis!.peakDbfs).toBeCloseTo(-1, 1);
    expect(audioFindings(analysis, video.fps).map((f) => f.code)).not.toContain('audio_peak');
  });
});

describe('audioFindings thresholds', () => {
  const base: SoundtrackAnalysis = {
    durationSeconds: 10,
    peakDbfs: -6,
    peakSeconds: 1,
    silences: [],
    loud: [],
    tracks: [{ src: 'asset:m.m4a', origin: 'music', volume: 1, startSeconds: 0, endSeconds: 10 }],
    unavailable: [],
  };
  const codes = (analysis: Partial<SoundtrackAnalysis>) =>
    audioFindings({ ...base, ...analysis }, 30).map((f) => [f.code, f.startFrame, f.endFrame]);

  it('reports silences inside the video from 2 s, at the end from 1 s', () => {
    expect(codes({ silences: [{ startSeconds: 3, endSeconds: 4.9 }] })).toEqual([]);
    expect(codes({ silences: [{ startSeconds: 3, endSeconds: 5.1 }] })).toEqual([['audio_silence', 90, 153]]);
    expect(codes({ silences: [{ startSeconds: 9.1, endSeconds: 10 }] })).toEqual([]);
    expect(codes({ silences: [{ startSeconds: 8.9, endSeconds: 10 }] })).toEqual([
      ['audio_silence', 267, 300],
    ]);
  });

  it('names the quiet track that plays through a silence', () => {
    const [finding] = audioFindings({ ...base, silences: [{ startSeconds: 2, endSeconds: 5 }] }, 30);
    expect(finding!.message).toContain('music "asset:m.m4a" (volume 1) plays there');
    expect(finding!.remedy).toContain('raise the volume of "asset:m.m4a"');
  });

  it('suggests starting a late track earlier when the video opens silent', () => {
    const tracks = [
      { src: 'asset:m.m4a', origin: 'music' as const, volume: 1, startSeconds: 3, endSeconds: 10 },
    ];
    const [finding] = audioFindings({ ...base, tracks, silences: [{ startSeconds: 0, endSeconds: 3 }] }, 30);
    expect(finding).toMatchObject({ code: 'audio_silence', startFrame: 0, endFrame: 90 });
    expect(finding!.message).toContain('no track sounds from 0 s–3 s');
    expect(finding!.remedy).toContain('start music "asset:m.m4a" (volume 1) earlier, at 0 s');
  });

  it('leaves silences to the missing source that would fill them', () => {
    const unavailable = [{ src: 'asset:gone.wav', reason: 'not found' }];
    expect(codes({ unavailable, silences: [{ startSeconds: 3, endSeconds: 8 }] })).toEqual([]);
  });

  it('reports each loud stretch, focused on its peak', () => {
    const loud = [{ startSeconds: 2, endSeconds: 2.5, peakDbfs: 0.8, peakSeconds: 2.2 }];
    const [finding] = audioFindings({ ...base, loud }, 30);
    expect(finding).toMatchObject({ code: 'audio_peak', startFrame: 60, endFrame: 75, focusFrame: 66 });
    // 0.8 dBFS down to -1 dBFS is 1.8 dB: volume × 0.81.
    expect(finding!.remedy).toContain('at least 1.8 dB: "asset:m.m4a" volume 1 → 0.81');
  });

  it('reports nothing without a soundtrack', () => {
    expect(audioFindings(undefined, 30)).toEqual([]);
  });
});

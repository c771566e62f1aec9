// What a media file really contains, as ffprobe reads it, in a shape that does not depend on the
// container's quirks (frame counts missing from WebM and GIF headers, VP9 alpha in a side channel).
import { resolve } from 'node:path';
import { ffprobePath } from './binaries.ts';
import { runTool } from './run.ts';
import type { ProbeVideo, ProbeAudio, ProbeResult } from '../../shared/protocol/receipt.ts';

interface RawStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  nb_frames?: string;
  nb_read_packets?: string;
  duration?: string;
  channels?: number;
  sample_rate?: string;
  tags?: Record<string, string>;
}

interface RawProbe {
  streams?: RawStream[];
  format?: { format_name?: string; duration?: string; size?: string };
}

function rate(value: string | undefined): number {
  if (!value) return 0;
  const [n, d] = value.split('/').map(Number);
  if (n === undefined || !Number.isFinite(n)) return 0;
  return d ? n / d : n;
}

function tag(stream: RawStream, name: string): string | undefined {
  const entry = Object.entries(stream.tags ?? {}).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}

/**
 * Whether the video carries transparency. VP9 stores alpha as a second stream in WebM's
 * BlockAdditional and only the `alpha_mode` tag says so (the base stream reads as yuv420p). GIF is
 * reported opaque: ffmpeg decodes it as bgra and its encoder uses transparency only to skip
 * unchanged pixels, so neither says whether the picture itself is transparent.
 */
export function streamHasAlpha(stream: {
  codec_name?: string;
  pix_fmt?: string;
  tags?: Record<string, string>;
}): boolean {
  if (stream.codec_name === 'gif') return false;
  if (tag(stream, 'alpha_mode') === '1') return true;
  const pixFmt = stream.pix_fmt ?? '';
  return /^(yuva|gbrap|rgba|bgra|argb|abgr|ya)/.test(pixFmt);
}

async function readProbe(path: string, args: string[], signal: AbortSignal | undefined): Promise<RawProbe> {
  // Only the local file protocol, and the path never read as a protocol URL ("concat:…").
  const input = ['-protocol_whitelist', 'file', `file:${resolve(path)}`];
  const { stdout } = await runTool(
    ffprobePath(),
    ['-v', 'error', '-print_format', 'json', ...args, ...input],
    {
      captureStdout: true,
      signal,
    },
  );
  return JSON.parse(stdout) as RawProbe;
}

export interface ProbeOptions {
  signal?: AbortSignal | undefined;
}

export async function probeFile(path: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const raw = await readProbe(path, ['-show_streams', '-show_format'], options.signal);
  const streams = raw.streams ?? [];
  const videoStream = streams.find((s) => s.codec_type === 'video');
  const audioStream = streams.find((s) => s.codec_type === 'audio');
  const durationSeconds = Number(raw.format?.duration ?? videoStream?.duration ?? 0);

  let video: ProbeVideo | undefined;
  if (videoStream) {
    // r_frame_rate is the stream's base rate; a GIF's avg_frame_rate wobbles with centisecond delays.
    const fps = rate(videoStream.r_frame_rate) || rate(videoStream.avg_frame_rate);
    let frames = Number(videoStream.nb_frames ?? NaN);
    if (!Number.isFinite(frames)) {
      // WebM and GIF headers carry no count: count packets, which reads the file without decoding it.
      const counted = await readProbe(
        path,
        ['-select_streams', 'v:0', '-count_packets', '-show_entries', 'stream=nb_read_packets'],
        options.signal,
      );
      frames = Number(counted.streams?.[0]?.nb_read_packets ?? NaN);
    }
    video = {
      codec: videoStream.codec_name ?? 'unknown',
      width: videoStream.width ?? 0,
      height: videoStream.height ?? 0,
      fps,
      frames: Number.isFinite(frames) ? frames : Math.round(durationSeconds * fps),
      pixFmt: videoStream.pix_fmt ?? 'unknown',
      hasAlpha: streamHasAlpha(videoStream),
    };
  }
  const audio: ProbeAudio | undefined = audioStream
    ? {
        codec: audioStream.codec_name ?? 'unknown',
        channels: audioStream.channels ?? 0,
        sampleRate: Number(audioStream.sample_rate ?? 0),
      }
    : undefined;

  return {
    formatName: raw.format?.format_name ?? 'unknown',
    durationSeconds,
    sizeBytes: Number(raw.format?.size ?? 0),
    video,
    audio,
  };
}

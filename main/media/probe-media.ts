// What a media file holds (duration, picture size, frame rate, audio), read with ffprobe, and the
// gate that keeps playlist-like containers away from ffmpeg: an HLS or concat "video" can make
// ffmpeg read other local files into the render.
import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { ffprobePath } from '../ffmpeg/binaries.ts';
import { MediaError } from './media-error.ts';

export interface MediaProbe {
  durationSeconds: number;
  /** The video stream's own duration when the container states it (it can be shorter than the audio). */
  videoDurationSeconds?: number;
  /** Display size (rotation applied), of the first real video stream. */
  width?: number;
  height?: number;
  fps?: number;
  hasAudio: boolean;
  hasVideo: boolean;
  /** ffprobe's demuxer name list, e.g. "mov,mp4,m4a,3gp,3g2,mj2". */
  formatName: string;
}

/** Demuxers that open further files or network resources named inside the input. */
const REFERENCING_FORMATS = new Set([
  'hls',
  'applehttp',
  'concat',
  'dash',
  'webm_dash_manifest',
  'sdp',
  'rtsp',
  'rtp',
]);

/** Only the local file protocol: nothing the input names can pull in http, pipes or other protocols. */
export const INPUT_PROTOCOLS = 'file';

function unsafeFormat(path: string, what: string, source: string | undefined): MediaError {
  return new MediaError(
    'media_unsafe_format',
    `media "${source ?? path}" is ${what}, which can reference other files; use a regular video file (mp4, webm, mov)`,
    source === undefined ? {} : { source },
  );
}

/** Refuses playlists and manifests by their first bytes, before ffprobe gets to follow them. */
async function refuseReferencingContainers(path: string, source: string | undefined): Promise<void> {
  const file = await open(path, 'r');
  const head = Buffer.alloc(1024);
  let bytesRead: number;
  try {
    ({ bytesRead } = await file.read(head, 0, head.length, 0));
  } finally {
    await file.close();
  }
  const text = head
    .subarray(0, bytesRead)
    .toString('latin1')
    .replace(/^(\xef\xbb\xbf)?\s*/, '');
  if (text.startsWith('#EXTM3U') || text.startsWith('#EXT-X-'))
    throw unsafeFormat(path, 'an HLS playlist', source);
  if (text.startsWith('ffconcat')) throw unsafeFormat(path, 'an ffconcat playlist', source);
  if (text.startsWith('<') && text.includes('<MPD')) throw unsafeFormat(path, 'a DASH manifest', source);
}

/** The first demuxer name: pinning it means ffmpeg cannot pick a different one than the probe judged. */
export function demuxerName(formatName: string): string | undefined {
  return formatName.split(',')[0] || undefined;
}

export function assertSafeFormat(formatName: string, path: string, source?: string): void {
  const names = formatName.split(',');
  const bad = names.find((name) => REFERENCING_FORMATS.has(name));
  if (bad) throw unsafeFormat(path, `a "${bad}" container`, source);
}

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface ProbeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: ProbeStream[];
}

function runFfprobe(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      ffprobePath(),
      args,
      { maxBuffer: 16 * 1024 * 1024, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) reject(Object.assign(error, { stderr }));
        else resolve(stdout);
      },
    );
  });
}

function rate(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const [num, den] = text.split('/').map(Number);
  const value = den === undefined ? num! : num! / den;
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function rotation(stream: ProbeStream): number {
  const fromSideData = stream.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const degrees = fromSideData ?? Number(stream.tags?.rotate ?? 0);
  return Number.isFinite(degrees) ? Math.abs(Math.round(degrees)) % 180 : 0;
}

/** Probes a local file; `source` (the spec's string) is named in errors. */
export async function probeMedia(path: string, source?: string): Promise<MediaProbe> {
  try {
    await refuseReferencingContainers(path, source);
  } catch (error) {
    if (error instanceof MediaError) throw error;
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new MediaError(
      missing ? 'missing_asset' : 'media_unreadable',
      `media "${source ?? path}" ${missing ? 'not found' : 'cannot be opened'} (${path})`,
      { cause: error, ...(source === undefined ? {} : { source }) },
    );
  }
  let output: ProbeOutput;
  try {
    const json = await runFfprobe([
      '-v',
      'error',
      '-protocol_whitelist',
      INPUT_PROTOCOLS,
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      `file:${path}`,
    ]);
    output = JSON.parse(json) as ProbeOutput;
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    const reason = stderr.split('\n').at(-1) || (error instanceof Error ? error.message : String(error));
    throw new MediaError(
      'media_probe_failed',
      `media "${source ?? path}" is not a readable media file: ${reason}`,
      {
        cause: error,
        ...(source === undefined ? {} : { source }),
      },
    );
  }
  const formatName = output.format?.format_name ?? '';
  assertSafeFormat(formatName, path, source);
  const streams = output.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const streamDurations = streams.map((s) => Number(s.duration)).filter((d) => Number.isFinite(d));
  const formatDuration = Number(output.format?.duration);
  const durationSeconds = Number.isFinite(formatDuration) ? formatDuration : Math.max(0, ...streamDurations);
  const probe: MediaProbe = {
    durationSeconds,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    hasVideo: video !== undefined,
    formatName,
  };
  if (video?.width && video.height) {
    const swap = rotation(video) === 90;
    probe.width = swap ? video.height : video.width;
    probe.height = swap ? video.width : video.height;
  }
  const videoDuration = Number(video?.duration);
  if (Number.isFinite(videoDuration) && videoDuration > 0) probe.videoDurationSeconds = videoDuration;
  const fps = rate(video?.avg_frame_rate) ?? rate(video?.r_frame_rate);
  if (fps !== undefined) probe.fps = fps;
  return probe;
}

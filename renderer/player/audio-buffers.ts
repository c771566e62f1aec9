// The preview's decoded sounds: each source fetched once through the preview's media route and
// decoded whole (an OfflineAudioContext decodes without a user gesture, so sounds are ready before
// the first unmute). Kept by src across builds, so typing in the editor does not decode again.
import { refusalReason } from './preview-media.ts';
import type { MissingSource } from './preview-media.ts';
import { mediaUrl } from './route-base.ts';

/** Decoded audio is about 0.4 MB a second: a larger file is left silent rather than decoded. */
export const MAX_SOUND_BYTES = 64 * 1024 * 1024;
const DECODE_SAMPLE_RATE = 48_000;

export type DecodedSound = { ok: true; buffer: AudioBuffer } | { ok: false; message: string };

let decoder: OfflineAudioContext | undefined;

async function decode(src: string): Promise<DecodedSound> {
  let response: Response;
  try {
    response = await fetch(mediaUrl(src));
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  if (!response.ok) return { ok: false, message: await refusalReason(src) };
  if (Number(response.headers.get('content-length') ?? 0) > MAX_SOUND_BYTES) {
    void response.body?.cancel();
    return { ok: false, message: 'too large to play in the preview (the export still mixes it)' };
  }
  const bytes = await response.arrayBuffer();
  decoder ??= new OfflineAudioContext(2, 1, DECODE_SAMPLE_RATE);
  try {
    return { ok: true, buffer: await decoder.decodeAudioData(bytes) };
  } catch {
    return { ok: false, message: 'the browser could not decode its sound' };
  }
}

export class SoundBuffers {
  readonly #decoded = new Map<string, Promise<DecodedSound>>();

  /** Decodes what is not decoded yet; resolves when every one of `sources` is settled. */
  async load(sources: Iterable<string>): Promise<void> {
    const pending = [...new Set(sources)].map((src) => {
      let decoded = this.#decoded.get(src);
      if (!decoded) {
        decoded = decode(src);
        this.#decoded.set(src, decoded);
      }
      return decoded;
    });
    await Promise.all(pending);
  }

  /** The decoded buffers among `sources` (after load). */
  async buffers(sources: Iterable<string>): Promise<Map<string, AudioBuffer>> {
    const buffers = new Map<string, AudioBuffer>();
    for (const src of new Set(sources)) {
      const decoded = await this.#decoded.get(src);
      if (decoded?.ok) buffers.set(src, decoded.buffer);
    }
    return buffers;
  }

  /** Sources among `required` that did not decode, with why. */
  async missing(required: Iterable<string>): Promise<MissingSource[]> {
    const missing: MissingSource[] = [];
    for (const src of new Set(required)) {
      const decoded = await this.#decoded.get(src);
      if (decoded && !decoded.ok) missing.push({ src, message: decoded.message });
    }
    return missing;
  }
}

// Audio helpers. Both make the same AudioTrack; the names say where it belongs: music() in the video's
// audio (timed from the video start), sfx() in a scene's audio (timed from the scene start).
import type { AudioTrack } from '../spec/audio.ts';
import { describeValue } from './element.ts';
import { plainData } from './plain-data.ts';

export type AudioProps = Omit<AudioTrack, 'src'>;

function track(helper: string, src: string, props: AudioProps | undefined): AudioTrack {
  if (typeof src !== 'string')
    throw new TypeError(`${helper}(): expected a source like 'asset:music.m4a', got ${describeValue(src)}`);
  const audio = plainData({ src, ...props });
  audio.src = src;
  return audio;
}

/** A soundtrack for the whole video: `video(props, scenes, { audio: [music('asset:music.m4a')] })`. */
export function music(src: string, props?: AudioProps): AudioTrack {
  return track('music', src, props);
}

/** A sound effect in a scene: `scene({ duration: '2s', audio: [sfx('asset:whoosh.wav')] }, [...])`. */
export function sfx(src: string, props?: AudioProps): AudioTrack {
  return track('sfx', src, props);
}

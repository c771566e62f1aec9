// The top of a composition: video(props, scenes, extras) and scene(props, elements), producing the
// VideoModel a JSON spec would (plus custom elements, which only code can make).
import type { ModelScene, VideoModel } from '../spec/model.ts';
import type { VideoSpec } from '../spec/schema.ts';
import type { ElementInput } from './element.ts';
import { describeValue, toModelElement } from './element.ts';
import { plainData } from './plain-data.ts';

export type SceneProps = Omit<ModelScene, 'elements'>;
/** Variables are declared by template(), around the video, not in it; overlays follow the scenes. */
export type VideoProps = Omit<VideoSpec, 'kinoSpec' | 'scenes' | 'variables' | 'overlays'> & { kinoSpec?: 1 };
/**
 * What reads best after the scenes: the overlays over the whole video, the soundtrack (and fonts).
 * Audio and fonts add to those in the props.
 */
export type VideoExtras = Pick<VideoSpec, 'audio' | 'fonts'> & { overlays?: ElementInput[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A scene: `scene({ duration: '3s', transition: crossFade() }, [text('Hi')])`. Leaving out the element
 * list makes a scene without `elements`, as in a JSON spec.
 */
export function scene(props: SceneProps, elements?: ElementInput[]): ModelScene {
  if (!isObject(props))
    throw new TypeError(`scene(): expected props like { duration: '3s' }, got ${describeValue(props)}`);
  const model: ModelScene = plainData({ ...props });
  if (elements !== undefined) {
    if (!Array.isArray(elements)) {
      throw new TypeError(`scene(): expected an array of elements, got ${describeValue(elements)}`);
    }
    model.elements = elements.map((element) => toModelElement(element));
  }
  return model;
}

/**
 * The video: `export default video({ fps: 30, aspect: 'reels' }, [scene(...)], { overlays: [captions(...)],
 * audio: [music(...)] })`. Overlays are elements over the whole video, timed from its start.
 */
export function video(props: VideoProps, scenes: ModelScene[], extras: VideoExtras = {}): VideoModel {
  if (!isObject(props))
    throw new TypeError(`video(): expected props like { fps: 30 }, got ${describeValue(props)}`);
  if (!Array.isArray(scenes)) {
    throw new TypeError(
      `video(): expected an array of scenes as the second argument, got ${describeValue(scenes)}`,
    );
  }
  const { kinoSpec: _version, ...rest } = props;
  const model: VideoModel = { kinoSpec: 1, ...plainData(rest), scenes: scenes.map((s) => plainData(s)) };
  if (extras.overlays !== undefined) {
    if (!Array.isArray(extras.overlays)) {
      throw new TypeError(
        `video(): expected an array of overlay elements, got ${describeValue(extras.overlays)}`,
      );
    }
    model.overlays = extras.overlays.map((element) => toModelElement(element));
  }
  if (extras.audio) model.audio = [...(model.audio ?? []), ...plainData(extras.audio)];
  if (extras.fonts) model.fonts = [...(model.fonts ?? []), ...plainData(extras.fonts)];
  return model;
}

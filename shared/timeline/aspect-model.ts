// A video as one aspect shows it: each scene's and element's overrides for that aspect (their
// `aspects`, shared/spec/aspect-overrides.ts) merged over their own fields. The timeline resolves this
// model, so drawing, review and media loading all read the aspect's values. No patch adds or removes
// a scene or an element, so keys and JSON pointers stay those of the spec.
import type { ModelElement, ModelScene, VideoModel } from '../spec/model.ts';
import type { AspectName } from '../spec/sizes.ts';

type Patched = { aspects?: Partial<Record<AspectName, object>> | undefined };

/** Whether the element (or scene) has its own overrides for `aspect`: an empty patch counts. */
export function hasOverrides(owner: object, aspect: AspectName | undefined): boolean {
  return aspect !== undefined && (owner as Patched).aspects?.[aspect] !== undefined;
}

function patched<T extends object>(owner: T, aspect: AspectName): T {
  const patch = (owner as Patched).aspects?.[aspect];
  return patch ? { ...owner, ...patch } : owner;
}

/** Each item for `aspect`; the list itself when none changed, so an unpatched video stays as it is. */
function mapSame<T>(list: readonly T[], map: (item: T) => T): T[] | undefined {
  const mapped = list.map(map);
  return mapped.some((item, i) => item !== list[i]) ? mapped : undefined;
}

function elementForAspect(element: ModelElement, aspect: AspectName): ModelElement {
  const own = patched(element, aspect);
  if (own.type !== 'group') return own;
  const children = mapSame(own.children, (child) => elementForAspect(child, aspect) as typeof child);
  return children ? { ...own, children } : own;
}

function sceneForAspect(scene: ModelScene, aspect: AspectName): ModelScene {
  const own = patched(scene, aspect);
  const elements = own.elements && mapSame(own.elements, (e) => elementForAspect(e, aspect));
  return elements ? { ...own, elements } : own;
}

/**
 * The model with `aspect`'s overrides applied (each object keeps its `aspects`, so later steps can
 * tell what had its own). Without an aspect (a custom size of no named shape), or without overrides
 * for it, the model itself.
 */
export function modelForAspect(model: VideoModel, aspect: AspectName | undefined): VideoModel {
  if (aspect === undefined) return model;
  const scenes = mapSame(model.scenes, (scene) => sceneForAspect(scene, aspect));
  const overlays = model.overlays && mapSame(model.overlays, (e) => elementForAspect(e, aspect));
  if (!scenes && !overlays) return model;
  return { ...model, scenes: scenes ?? model.scenes, ...(overlays ? { overlays } : {}) };
}

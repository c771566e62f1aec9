// Where a video's elements are written: each scene's list, and the overlays over the whole video.
// Every walk over a spec's elements (fonts, code, caption and data files, checks) starts from these
// lists, so none of them forgets the overlays.

/** One top-level element list and its JSON pointer in the spec. */
export interface ElementList<E> {
  elements: readonly E[];
  pointer: string;
}

/** The JSON pointer of the overlays list. */
export const OVERLAYS_POINTER = '/overlays';

/** Each scene's element list in order, then the overlays (when the video has any). */
export function elementLists<E>(video: {
  scenes: readonly { elements?: readonly E[] | undefined }[];
  overlays?: readonly E[] | undefined;
}): ElementList<E>[] {
  const lists: ElementList<E>[] = video.scenes.map((scene, index) => ({
    elements: scene.elements ?? [],
    pointer: `/scenes/${index}/elements`,
  }));
  if (video.overlays) lists.push({ elements: video.overlays, pointer: OVERLAYS_POINTER });
  return lists;
}

/** Every top-level element of the video: the scenes' in order, then the overlays. */
export function topLevelElements<E>(video: Parameters<typeof elementLists<E>>[0]): E[] {
  return elementLists(video).flatMap((list) => list.elements);
}

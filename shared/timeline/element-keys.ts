// Element keys: the short path that names an element of the resolved timeline in drawing, review
// findings and inspect facts ("s0/e2/e1": scene 0, element 2, child 1; "o/e0": overlay 0), and the
// JSON pointer into the spec that each one stands for.

/** The key prefix of a scene's elements. */
export function sceneKeyPrefix(sceneIndex: number): string {
  return `s${sceneIndex}`;
}

/** The key prefix of the overlays. */
export const OVERLAYS_KEY_PREFIX = 'o';

/** "s0/e2/e1" → "/scenes/0/elements/2/children/1"; "o/e1" → "/overlays/1". */
export function elementPointer(key: string): string | undefined {
  const match = /^(?:s(\d+)|o)((?:\/e\d+)+)$/.exec(key);
  if (!match) return undefined;
  const [first, ...children] = match[2]!.split('/e').slice(1);
  const list = match[1] === undefined ? '/overlays' : `/scenes/${match[1]}/elements`;
  return `${list}/${[first, ...children].join('/children/')}`;
}

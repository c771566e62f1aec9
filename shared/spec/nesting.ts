// Groups nest, and every step that walks a spec (validation, timeline, drawing, review) recurses
// into them. A hostile spec of a few kilobytes nested hundreds deep would overflow the stack in any
// of them, so the depth is checked first, by a walk that keeps its own stack.

/** How deep groups may nest: a group inside a group … at most this many levels. */
export const MAX_GROUP_DEPTH = 32;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Path = (string | number)[];

/** The path of the first element with children nested deeper than MAX_GROUP_DEPTH, if any. */
export function tooDeepGroup(input: unknown): Path | undefined {
  if (!isRecord(input) || !Array.isArray(input.scenes)) return undefined;
  const pending: { elements: unknown; path: Path; depth: number }[] = [];
  input.scenes.forEach((scene, index) => {
    if (isRecord(scene))
      pending.push({ elements: scene.elements, path: ['scenes', index, 'elements'], depth: 1 });
  });
  pending.push({ elements: input.overlays, path: ['overlays'], depth: 1 });
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (!Array.isArray(next.elements)) continue;
    for (const [index, element] of next.elements.entries()) {
      if (!isRecord(element) || element.children === undefined) continue;
      const path = [...next.path, index];
      if (next.depth > MAX_GROUP_DEPTH) return path;
      pending.push({ elements: element.children, path: [...path, 'children'], depth: next.depth + 1 });
    }
  }
  return undefined;
}

export const TOO_DEEP_MESSAGE = `groups nest at most ${MAX_GROUP_DEPTH} deep, and this one is deeper: flatten the groups around it`;

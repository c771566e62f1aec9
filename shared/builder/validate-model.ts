// Validates a video model (what a composition exports) with the spec's own schema. Custom elements
// are code-only, so each is set aside (a placeholder keeps its index, and so every other element's
// JSON pointer), checked against the base element fields, and put back afterwards.
import { z } from 'zod';
import { elementBaseShape } from '../spec/element-base.ts';
import type { CustomElement, VideoModel } from '../spec/model.ts';
import { VideoSpecSchema } from '../spec/schema.ts';
import type { SpecIssue } from '../spec/validate.ts';
import {
  SpecValidationError,
  formatIssues,
  nestingIssues,
  toJsonPointer,
  unboundTemplateIssues,
} from '../spec/validate.ts';

const CustomElementSchema = z.strictObject({
  type: z.literal('custom'),
  ...elementBaseShape,
  draw: z.custom<CustomElement['draw']>(
    (value) => typeof value === 'function',
    'expected a draw function (ctx, info) => void',
  ),
});

type Path = (string | number)[];

interface SetAside {
  path: Path;
  element: unknown;
}

export type ModelParseResult = { ok: true; model: VideoModel } | { ok: false; issues: SpecIssue[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Copies the element lists, swapping each custom element for a placeholder the schema accepts. */
function withoutCustom(list: unknown, path: Path, setAside: SetAside[]): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((element: unknown, index) => {
    if (!isRecord(element)) return element;
    if (element.type === 'custom') {
      setAside.push({ path: [...path, index], element });
      return { type: 'rect' };
    }
    if (element.type === 'group' && Array.isArray(element.children)) {
      return {
        ...element,
        children: withoutCustom(element.children, [...path, index, 'children'], setAside),
      };
    }
    return element;
  });
}

function putBack(root: unknown, path: Path, value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
}

export function parseModel(input: unknown): ModelParseResult {
  if (!isRecord(input) || !Array.isArray(input.scenes)) {
    return {
      ok: false,
      issues: [{ pointer: '', message: 'expected a video made with video(props, [scene(...)])' }],
    };
  }
  const refused = nestingIssues(input) ?? unboundTemplateIssues(input);
  if (refused) return { ok: false, issues: refused };
  const setAside: SetAside[] = [];
  const scenes = input.scenes.map((scene: unknown, index) =>
    isRecord(scene) && scene.elements !== undefined
      ? { ...scene, elements: withoutCustom(scene.elements, ['scenes', index, 'elements'], setAside) }
      : scene,
  );
  const overlays = withoutCustom(input.overlays, ['overlays'], setAside);
  const result = VideoSpecSchema.safeParse({
    ...input,
    scenes,
    ...(overlays === undefined ? {} : { overlays }),
  });
  const issues = result.success ? [] : formatIssues(result.error);
  const customs = setAside.map(({ path, element }) => {
    const parsed = CustomElementSchema.safeParse(element);
    if (!parsed.success) {
      const prefix = toJsonPointer(path);
      issues.push(
        ...formatIssues(parsed.error).map((issue) => ({ ...issue, pointer: prefix + issue.pointer })),
      );
    }
    return { path, element: parsed.data };
  });
  if (!result.success || issues.length > 0) return { ok: false, issues };
  const model = result.data as VideoModel;
  for (const { path, element } of customs) putBack(model, path, element);
  return { ok: true, model };
}

/** The validated model; throws a SpecValidationError listing every issue at its JSON pointer. */
export function assertModel(input: unknown): VideoModel {
  const result = parseModel(input);
  if (!result.ok) throw new SpecValidationError(result.issues);
  return result.model;
}

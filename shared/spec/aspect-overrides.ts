// Per-aspect overrides: a scene or an element may carry `aspects`, a patch of its own fields for each
// aspect it is rendered in ({"aspects": {"reels": {"x": 0.5, "size": 64}}}). Each patch is checked
// against the schema of the fields it patches, so it can only say what the scene or element itself can;
// resolving the timeline for an aspect merges that aspect's patch over the fields
// (shared/timeline/aspect-model.ts).
import { z } from 'zod';
import { ASPECT_NAMES, AspectNameSchema } from './sizes.ts';
import type { AspectName } from './sizes.ts';

/**
 * Fields no patch sets: what an element is, the id others refer to it by, its children (each child
 * carries its own overrides) and the overrides themselves.
 */
const NEVER_PATCHED = ['type', 'id', 'children', 'aspects'] as const;
type NeverPatched = (typeof NEVER_PATCHED)[number];

/** A patch of `T`'s fields for one aspect: any of them, except those that stay one in every aspect. */
export type AspectPatch<T, Fixed extends PropertyKey = never> = Partial<Omit<T, NeverPatched | Fixed>>;
export type AspectOverrides<T, Fixed extends PropertyKey = never> = Partial<
  Record<AspectName, AspectPatch<T, Fixed>>
>;

const DESCRIPTION = `Overrides for one aspect (${ASPECT_NAMES.join(', ')}): fields of this object that replace its own when the video is rendered in that aspect.`;

/** What a patch belongs to, for messages. */
type Owner = 'element' | 'scene';

const fixedMessage = (field: string, owner: Owner) =>
  `"${field}" is the same in every aspect: set it on the ${owner} itself, not in one aspect's overrides`;

/**
 * Every aspect patch schema. Validation checks each patch in full, but the spec's JSON Schema names a
 * patch's fields without repeating their schemas (json-schema.ts): repeated for every element type they
 * would double it (235 KB → 460 KB), which every editor and agent that reads it would pay for.
 */
export const ASPECT_PATCH_SCHEMAS = new WeakSet<object>();

/**
 * The schema of one aspect's patch: the fields of `fields` less those never patched, each optional;
 * the `fixed` ones refused with a message that says why.
 */
function aspectPatchSchema(
  fields: z.ZodObject<z.ZodRawShape, z.core.$strict>,
  fixed: readonly string[],
  owner: Owner,
): z.ZodObject<z.ZodRawShape, z.core.$strict> {
  const omitted = [...NEVER_PATCHED, ...fixed].filter((key) => key in fields.shape);
  const patch = fields.omit(Object.fromEntries(omitted.map((key) => [key, true]))).partial();
  const refused = fixed.filter((key) => key in fields.shape);
  const checked =
    refused.length === 0
      ? patch
      : patch.extend(
          Object.fromEntries(
            refused.map((key) => [key, z.never({ error: fixedMessage(key, owner) }).optional()]),
          ),
        );
  ASPECT_PATCH_SCHEMAS.add(checked);
  return checked;
}

/** The `aspects` field of an object of `fields`: at most one patch of them per aspect name. */
export function aspectsField<Shape extends z.ZodRawShape, const Fixed extends string = never>(
  fields: z.ZodObject<Shape, z.core.$strict>,
  fixed: readonly Fixed[] = [],
  owner: Owner = 'element',
): z.ZodOptional<z.ZodType<AspectOverrides<z.infer<z.ZodObject<Shape>>, Fixed>>> {
  const generic = fields as unknown as z.ZodObject<z.ZodRawShape, z.core.$strict>;
  const patch = aspectPatchSchema(generic, fixed, owner);
  return z.partialRecord(AspectNameSchema, patch).optional().describe(DESCRIPTION) as never;
}

type Refinement<T> = (value: T, context: z.RefinementCtx) => void;

/**
 * `fields` with an `aspects` field of patches of them. A check across fields (`refine`) holds for the
 * element as written and for it as each aspect patches it; what a patch breaks is reported under that
 * patch (at the patched field, or at the patch when the field it breaks was not patched).
 */
export function withAspects<Shape extends z.ZodRawShape, const Fixed extends string = never>(
  fields: z.ZodObject<Shape, z.core.$strict>,
  options: { fixed?: readonly Fixed[]; refine?: Refinement<z.infer<z.ZodObject<Shape>>>; owner?: Owner } = {},
) {
  type Fields = z.infer<z.ZodObject<Shape>>;
  const schema = fields.extend({ aspects: aspectsField(fields, options.fixed, options.owner) });
  const refine = options.refine;
  if (!refine) return schema;
  return schema.superRefine((value, context) => {
    const element = value as Fields & { aspects?: AspectOverrides<Fields, Fixed> };
    refine(element, context);
    for (const aspect of ASPECT_NAMES) {
      const patch = element.aspects?.[aspect] as Record<string, unknown> | undefined;
      if (patch) refine({ ...element, ...patch } as Fields, underPatch(context, aspect, patch));
    }
  });
}

/** A refinement context whose issues land in `aspects.<aspect>`. */
function underPatch(
  context: z.RefinementCtx,
  aspect: AspectName,
  patch: Record<string, unknown>,
): z.RefinementCtx {
  return {
    ...context,
    addIssue(issue) {
      if (typeof issue === 'string') return context.addIssue(issue);
      const path = issue.path ?? [];
      const patched = path.length > 0 && String(path[0]) in patch;
      context.addIssue({
        ...issue,
        path: ['aspects', aspect, ...(patched ? path : [])],
        message: patched || path.length === 0 ? issue.message : `${path.join('.')}: ${issue.message}`,
      } as typeof issue);
    },
  };
}

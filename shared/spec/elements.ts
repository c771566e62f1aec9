// Every element type of the spec, in one list: its schema, how the builder names it and what media it
// needs. How an element draws lives in shared/elements; adding an element is a schema module, one
// entry here and one drawer there.
import { z } from 'zod';
import { elementBaseShape } from './element-base.ts';
import type { ClipElement, ImageElement } from './media-elements.ts';
import { ClipElementSchema, ImageElementSchema } from './media-elements.ts';
import type { EllipseElement, LineElement, PathElement, RectElement } from './shape-elements.ts';
import {
  EllipseElementSchema,
  LineElementSchema,
  PathElementSchema,
  RectElementSchema,
} from './shape-elements.ts';
import type { TextElement } from './text-element.ts';
import { TextElementSchema } from './text-element.ts';
import type { CounterElement } from './counter-element.ts';
import { CounterElementSchema } from './counter-element.ts';
import type { CaptionsElement } from './captions-element.ts';
import { CaptionsElementSchema, captionFile } from './captions-element.ts';
import { MAX_GROUP_DEPTH } from './nesting.ts';
import { TimeSchema } from './time.ts';

/** A group: children laid out in the group's box and sharing its transform and animations. */
export interface GroupElement extends z.infer<typeof GroupFieldsSchema> {
  type: 'group';
  children: SpecElement[];
}

export type SpecElement =
  | TextElement
  | CounterElement
  | CaptionsElement
  | ImageElement
  | ClipElement
  | RectElement
  | EllipseElement
  | LineElement
  | PathElement
  | GroupElement;

const GroupFieldsSchema = z.strictObject({
  ...elementBaseShape,
  stagger: TimeSchema.optional().describe("Offsets each child's animations by this much more than the last."),
  clip: z.boolean().optional().describe("Clip children to the group's box."),
});

export const GroupElementSchema: z.ZodType<GroupElement> = z.strictObject({
  type: z.literal('group'),
  ...GroupFieldsSchema.shape,
  get children() {
    return z
      .array(ElementSchema)
      .max(500)
      .describe(`The group's elements. Groups nest at most ${MAX_GROUP_DEPTH} deep.`);
  },
});

export const ElementSchema: z.ZodType<SpecElement> = z
  .lazy(() =>
    z.discriminatedUnion('type', [
      TextElementSchema,
      CounterElementSchema,
      CaptionsElementSchema,
      ImageElementSchema,
      ClipElementSchema,
      RectElementSchema,
      EllipseElementSchema,
      LineElementSchema,
      PathElementSchema,
      GroupElementSchema as unknown as typeof RectElementSchema,
    ]),
  )
  .meta({ id: 'Element', description: 'A visual element, chosen by its "type".' });

export interface MediaNeeds {
  images: string[];
  videos: string[];
  /** Caption files (SRT or WebVTT), read as text. */
  captions?: string[];
}

/** What the spec knows of one element type; drawing is shared/elements' part. */
export interface ElementKind<T extends { type: string } = { type: string }> {
  readonly type: T['type'];
  /** The strict object schema: the base element fields plus this type's own. */
  readonly schema: z.ZodType<T>;
  /** Builder function name and, when it takes one, its leading positional field: text('Hi', {...}). */
  readonly builder: { name: string; positional?: string; children?: boolean };
  /** The media files the element shows, by their source strings. */
  media?(element: T): MediaNeeds;
  /** It draws text: review reads its glyphs, and samples what lies behind it without it. */
  textual?: boolean;
}

function kind<T extends { type: string }>(definition: ElementKind<T>): ElementKind<SpecElement> {
  return definition as unknown as ElementKind<SpecElement>;
}

export const ELEMENT_KINDS: readonly ElementKind<SpecElement>[] = [
  kind<TextElement>({
    type: 'text',
    schema: TextElementSchema,
    builder: { name: 'text', positional: 'text' },
    textual: true,
  }),
  kind<CounterElement>({
    type: 'counter',
    schema: CounterElementSchema,
    builder: { name: 'counter', positional: 'to' },
    textual: true,
  }),
  kind<CaptionsElement>({
    type: 'captions',
    schema: CaptionsElementSchema,
    builder: { name: 'captions' },
    textual: true,
    media: (element) => {
      const file = captionFile(element);
      return { images: [], videos: [], captions: file ? [file.src] : [] };
    },
  }),
  kind<ImageElement>({
    type: 'image',
    schema: ImageElementSchema,
    builder: { name: 'image', positional: 'src' },
    media: (element) => ({ images: [element.src], videos: [] }),
  }),
  kind<ClipElement>({
    type: 'clip',
    schema: ClipElementSchema,
    builder: { name: 'clip', positional: 'src' },
    media: (element) => ({ images: [], videos: [element.src] }),
  }),
  kind<RectElement>({ type: 'rect', schema: RectElementSchema, builder: { name: 'rect' } }),
  kind<EllipseElement>({ type: 'ellipse', schema: EllipseElementSchema, builder: { name: 'ellipse' } }),
  kind<LineElement>({ type: 'line', schema: LineElementSchema, builder: { name: 'line' } }),
  kind<PathElement>({ type: 'path', schema: PathElementSchema, builder: { name: 'path', positional: 'd' } }),
  kind<GroupElement>({
    type: 'group',
    schema: GroupElementSchema,
    builder: { name: 'group', children: true },
  }),
];

const byType = new Map<string, ElementKind<SpecElement>>(
  ELEMENT_KINDS.map((definition) => [definition.type, definition]),
);

export function elementKind(type: string): ElementKind<SpecElement> | undefined {
  return byType.get(type);
}

/** Whether elements of this type draw text (text, counter, captions). */
export function isTextualType(type: string): boolean {
  return byType.get(type)?.textual === true;
}

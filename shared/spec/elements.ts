// Every element type of the spec, in one list: its schema, how the builder names it and what media it
// needs. How an element draws lives in shared/elements; adding an element is a schema module, one
// entry here and one drawer there.
import { z } from 'zod';
import { aspectsField } from './aspect-overrides.ts';
import type { AspectOverrides } from './aspect-overrides.ts';
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
import type { CodeElement } from './code-element.ts';
import { CodeElementSchema } from './code-element.ts';
import type { MarkdownElement } from './markdown-element.ts';
import { MarkdownElementSchema } from './markdown-element.ts';
import type { TerminalElement } from './terminal-element.ts';
import { TerminalElementSchema } from './terminal-element.ts';
import type { ArrowElement, CalloutElement, SpotlightElement } from './annotation-elements.ts';
import { ArrowElementSchema, CalloutElementSchema, SpotlightElementSchema } from './annotation-elements.ts';
import type { LowerThirdElement, ProgressBarElement, TitleCardElement } from './title-elements.ts';
import {
  LowerThirdElementSchema,
  ProgressBarElementSchema,
  TitleCardElementSchema,
} from './title-elements.ts';
import type { ChartElement } from './chart-element.ts';
import { ChartElementSchema } from './chart-element.ts';
import { MAX_GROUP_DEPTH } from './nesting.ts';
import { TimeSchema } from './time.ts';

/** A group: children laid out in the group's box and sharing its transform and animations. */
export interface GroupElement extends z.infer<typeof GroupFieldsSchema> {
  type: 'group';
  children: SpecElement[];
  /** Overrides of the group's own fields per aspect; each child carries its own. */
  aspects?: AspectOverrides<z.infer<typeof GroupFieldsSchema>>;
}

export type SpecElement =
  | TextElement
  | CounterElement
  | CaptionsElement
  | ChartElement
  | ImageElement
  | ClipElement
  | RectElement
  | EllipseElement
  | LineElement
  | PathElement
  | ArrowElement
  | CalloutElement
  | SpotlightElement
  | LowerThirdElement
  | TitleCardElement
  | ProgressBarElement
  | CodeElement
  | MarkdownElement
  | TerminalElement
  | GroupElement;

const GroupFieldsSchema = z.strictObject({
  ...elementBaseShape,
  stagger: TimeSchema.optional().describe("Offsets each child's animations by this much more than the last."),
  clip: z.boolean().optional().describe("Clip children to the group's box."),
});

export const GroupElementSchema: z.ZodType<GroupElement> = z.strictObject({
  type: z.literal('group'),
  ...GroupFieldsSchema.shape,
  aspects: aspectsField(GroupFieldsSchema),
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
      ChartElementSchema,
      ImageElementSchema,
      ClipElementSchema,
      RectElementSchema,
      EllipseElementSchema,
      LineElementSchema,
      PathElementSchema,
      ArrowElementSchema,
      CalloutElementSchema,
      SpotlightElementSchema,
      LowerThirdElementSchema,
      TitleCardElementSchema,
      ProgressBarElementSchema,
      CodeElementSchema,
      MarkdownElementSchema,
      TerminalElementSchema,
      GroupElementSchema as unknown as typeof RectElementSchema,
    ]),
  )
  .meta({ id: 'Element', description: 'A visual element, chosen by its "type".' });

export interface MediaNeeds {
  images: string[];
  videos: string[];
  /** Caption files (SRT or WebVTT), read as text. */
  captions?: string[];
  /** Data files (CSV or JSON) a chart reads, as text. */
  data?: string[];
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
  kind<ChartElement>({
    type: 'chart',
    schema: ChartElementSchema,
    builder: { name: 'chart', positional: 'kind' },
    // Its labels are text: review reads them like a counter's.
    textual: true,
    media: (element) => ({ images: [], videos: [], data: element.data ? [element.data.src] : [] }),
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
  kind<ArrowElement>({ type: 'arrow', schema: ArrowElementSchema, builder: { name: 'arrow' } }),
  kind<CalloutElement>({
    type: 'callout',
    schema: CalloutElementSchema,
    builder: { name: 'callout', positional: 'text' },
    textual: true,
  }),
  kind<SpotlightElement>({
    type: 'spotlight',
    schema: SpotlightElementSchema,
    builder: { name: 'spotlight' },
  }),
  kind<LowerThirdElement>({
    type: 'lowerThird',
    schema: LowerThirdElementSchema,
    builder: { name: 'lowerThird', positional: 'name' },
    textual: true,
  }),
  kind<TitleCardElement>({
    type: 'titleCard',
    schema: TitleCardElementSchema,
    builder: { name: 'titleCard', positional: 'title' },
    textual: true,
  }),
  kind<ProgressBarElement>({
    type: 'progressBar',
    schema: ProgressBarElementSchema,
    builder: { name: 'progressBar' },
  }),
  kind<CodeElement>({
    type: 'code',
    schema: CodeElementSchema,
    builder: { name: 'code', positional: 'code' },
  }),
  kind<MarkdownElement>({
    type: 'markdown',
    schema: MarkdownElementSchema,
    builder: { name: 'markdown', positional: 'markdown' },
  }),
  kind<TerminalElement>({
    type: 'terminal',
    schema: TerminalElementSchema,
    builder: { name: 'terminal' },
  }),
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

// Every element type, in one list. Adding an element is one module plus one line here.
import { z } from 'zod';
import type { ClipElement } from './clip.ts';
import { ClipElementSchema, clipElement } from './clip.ts';
import type { ElementDefinition } from './definition.ts';
import type { GroupElement } from './group.ts';
import { GroupElementSchema, groupElement } from './group.ts';
import type { ImageElement } from './image.ts';
import { ImageElementSchema, imageElement } from './image.ts';
import type { EllipseElement, LineElement, PathElement, RectElement } from './shapes.ts';
import {
  EllipseElementSchema,
  LineElementSchema,
  PathElementSchema,
  RectElementSchema,
  ellipseElement,
  lineElement,
  pathElement,
  rectElement,
} from './shapes.ts';
import type { TextElement } from './text.ts';
import { TextElementSchema, textElement } from './text.ts';

export type SpecElement =
  | TextElement
  | ImageElement
  | ClipElement
  | RectElement
  | EllipseElement
  | LineElement
  | PathElement
  | GroupElement;

export const ElementSchema: z.ZodType<SpecElement> = z
  .lazy(() =>
    z.discriminatedUnion('type', [
      TextElementSchema,
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

export const ELEMENT_DEFINITIONS: readonly ElementDefinition<SpecElement>[] = [
  textElement,
  imageElement,
  clipElement,
  rectElement,
  ellipseElement,
  lineElement,
  pathElement,
  groupElement,
] as unknown as ElementDefinition<SpecElement>[];

const byType = new Map<string, ElementDefinition<SpecElement>>(
  ELEMENT_DEFINITIONS.map((definition) => [definition.type, definition]),
);

export function elementDefinition(type: string): ElementDefinition<SpecElement> | undefined {
  return byType.get(type);
}

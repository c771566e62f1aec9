// A group: children laid out in the group's box and sharing its transform and animations.
import { z } from 'zod';
import { elementBaseShape } from '../spec/element-base.ts';
import { TimeSchema } from '../spec/time.ts';
import { defineElement } from './definition.ts';
import type { SpecElement } from './registry.ts';
import { ElementSchema } from './registry.ts';

export interface GroupElement extends z.infer<typeof GroupFieldsSchema> {
  type: 'group';
  children: SpecElement[];
}

const GroupFieldsSchema = z.strictObject({
  ...elementBaseShape,
  stagger: TimeSchema.optional().describe("Offsets each child's animations by this much more than the last."),
  clip: z.boolean().optional().describe("Clip children to the group's box."),
});

export const GroupElementSchema: z.ZodType<GroupElement> = z.strictObject({
  type: z.literal('group'),
  ...GroupFieldsSchema.shape,
  get children() {
    return z.array(ElementSchema).max(500);
  },
});

export const groupElement = defineElement<GroupElement>({
  type: 'group',
  schema: GroupElementSchema,
  builder: { name: 'group', children: true },
  intrinsicSize: (_element, _env, maxWidth, maxHeight) => ({ width: maxWidth, height: maxHeight }),
  draw: ({ element, box, drawChildren }) => drawChildren(element.children, box),
});

// Element builders, generated from the element registry: each definition's `builder` says the function
// name, its leading positional field and whether it takes children, so a new element type gets a
// builder without code here. The named exports below give each one its precise TypeScript signature.
import type { ElementKind, GroupElement, SpecElement } from '../spec/elements.ts';
import { ELEMENT_KINDS } from '../spec/elements.ts';
import type { ClipElement, ImageElement } from '../spec/media-elements.ts';
import type { EllipseElement, LineElement, PathElement, RectElement } from '../spec/shape-elements.ts';
import type { TextElement } from '../spec/text-element.ts';
import type { CounterElement } from '../spec/counter-element.ts';
import type { CaptionsElement } from '../spec/captions-element.ts';
import type { CustomDrawInfo, CustomElement, ModelElement } from '../spec/model.ts';
import type { ElementInput } from './element.ts';
import { KinoElement, describeValue, toModelElement } from './element.ts';

type Props<T, Omitted extends string = never> = Omit<T, 'type' | Omitted>;
export type TextProps = Props<TextElement, 'text'>;
export type CounterProps = Props<CounterElement, 'to'>;
export type CaptionsProps = Props<CaptionsElement>;
export type ImageProps = Props<ImageElement, 'src'>;
export type ClipProps = Props<ClipElement, 'src'>;
export type RectProps = Props<RectElement>;
export type EllipseProps = Props<EllipseElement>;
export type LineProps = Props<LineElement>;
export type PathProps = Props<PathElement, 'd'>;
export type GroupProps = Props<GroupElement, 'children'>;
export type CustomProps = Props<CustomElement, 'draw'>;
export type CustomDraw = CustomElement['draw'];
export type { CustomDrawInfo };

type AnyBuilder = (...args: unknown[]) => KinoElement;

function withoutType(props: unknown, builderName: string): Record<string, unknown> {
  if (props === undefined) return {};
  if (typeof props !== 'object' || props === null || Array.isArray(props)) {
    throw new TypeError(`${builderName}(): expected a props object, got ${describeValue(props)}`);
  }
  const { type: _ignored, ...rest } = props as Record<string, unknown>;
  return rest;
}

function childModels(children: unknown, builderName: string): ModelElement[] {
  if (!Array.isArray(children)) {
    throw new TypeError(
      `${builderName}(): expected an array of child elements, got ${describeValue(children)}`,
    );
  }
  return children.map((child: ElementInput) => toModelElement(child));
}

function builderFor(definition: ElementKind<SpecElement>): AnyBuilder {
  const { type } = definition;
  const { name, positional, children } = definition.builder;
  if (children) {
    // group(props, children) or group(children).
    return (first, second) => {
      const [props, kids] = Array.isArray(first) ? [undefined, first] : [first, second];
      const model = { type, ...withoutType(props, name), children: childModels(kids, name) };
      return new KinoElement(model as unknown as SpecElement);
    };
  }
  if (positional) {
    return (value, props) => {
      if (value === undefined)
        throw new TypeError(`${name}(): the first argument (${positional}) is required`);
      return new KinoElement({
        type,
        [positional]: value,
        ...withoutType(props, name),
      } as unknown as SpecElement);
    };
  }
  return (props) => new KinoElement({ type, ...withoutType(props, name) } as unknown as SpecElement);
}

/** Every registered element's builder, by its builder name. */
export const elementBuilders: Readonly<Record<string, AnyBuilder>> = Object.freeze(
  Object.fromEntries(ELEMENT_KINDS.map((definition) => [definition.builder.name, builderFor(definition)])),
);

function registered<F>(name: string): F {
  const builder = elementBuilders[name];
  if (!builder) throw new Error(`kino builder: the element registry has no builder named "${name}"`);
  return builder as F;
}

/** Text: `text('Hello', { font: 'display', size: 120 })`. */
export const text = registered<(text: string, props?: TextProps) => KinoElement<TextElement>>('text');
/** A number counting up (or down): `counter(12480, { prefix: '$', countDuration: '2s' })`. */
export const counter =
  registered<(to: number, props?: CounterProps) => KinoElement<CounterElement>>('counter');
/** Timed captions: `captions({ srt: 'asset:talk.srt', style: 'pop' })`, or `words` from a transcriber. */
export const captions = registered<(props: CaptionsProps) => KinoElement<CaptionsElement>>('captions');
/** A still image: `image('asset:photo.jpg', { width: '80%', radius: 32 })`. */
export const image = registered<(src: string, props?: ImageProps) => KinoElement<ImageElement>>('image');
/** A video clip: `clip('asset:waves.mp4', { trim: { start: '1s' }, muted: true })`. */
export const clip = registered<(src: string, props?: ClipProps) => KinoElement<ClipElement>>('clip');
/** A rectangle, rounded when `radius` is set. */
export const rect = registered<(props?: RectProps) => KinoElement<RectElement>>('rect');
export const ellipse = registered<(props?: EllipseProps) => KinoElement<EllipseElement>>('ellipse');
/** A line from (x, y) to (x2, y2); animate `progress` to draw it on. */
export const line = registered<(props: LineProps) => KinoElement<LineElement>>('line');
/** An SVG path in a 100×100 (or `viewBox`) space scaled to the element's box. */
export const path = registered<(d: string, props?: PathProps) => KinoElement<PathElement>>('path');

type GroupBuilder = {
  (props: GroupProps, children: ElementInput[]): KinoElement<GroupElement>;
  (children: ElementInput[]): KinoElement<GroupElement>;
};
/** Children laid out in the group's box, sharing its transform and animations. */
export const group = registered<GroupBuilder>('group');

/** Code-only: draws with the Canvas 2D API in the element's box, whose top-left is (0, 0). */
export function custom(props: CustomProps, draw: CustomDraw): KinoElement<CustomElement>;
export function custom(draw: CustomDraw): KinoElement<CustomElement>;
export function custom(first: CustomProps | CustomDraw, second?: CustomDraw): KinoElement<CustomElement> {
  const [props, draw] = typeof first === 'function' ? [undefined, first] : [first, second];
  if (typeof draw !== 'function') {
    throw new TypeError(`custom(): expected a draw function (ctx, info) => void, got ${describeValue(draw)}`);
  }
  return new KinoElement({ type: 'custom', ...withoutType(props, 'custom'), draw } as CustomElement);
}

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
import type { ChartElement } from '../spec/chart-element.ts';
import type { TerminalElement } from '../spec/terminal-element.ts';
import type { ArrowElement, CalloutElement, SpotlightElement } from '../spec/annotation-elements.ts';
import type { LowerThirdElement, ProgressBarElement, TitleCardElement } from '../spec/title-elements.ts';
import type { CodeElement } from '../spec/code-element.ts';
import type { MarkdownElement } from '../spec/markdown-element.ts';
import type { CustomDrawInfo, CustomElement, ModelElement } from '../spec/model.ts';
import type { ElementInput } from './element.ts';
import { KinoElement, describeValue, toModelElement } from './element.ts';

type Props<T, Omitted extends string = never> = Omit<T, 'type' | Omitted>;
export type TextProps = Props<TextElement, 'text'>;
export type CounterProps = Props<CounterElement, 'to'>;
export type CaptionsProps = Props<CaptionsElement>;
export type ChartProps = Props<ChartElement, 'kind'>;
export type TerminalProps = Props<TerminalElement>;
export type ImageProps = Props<ImageElement, 'src'>;
export type ClipProps = Props<ClipElement, 'src'>;
export type RectProps = Props<RectElement>;
export type EllipseProps = Props<EllipseElement>;
export type LineProps = Props<LineElement>;
export type PathProps = Props<PathElement, 'd'>;
export type ArrowProps = Props<ArrowElement>;
export type CalloutProps = Props<CalloutElement, 'text'>;
export type SpotlightProps = Props<SpotlightElement>;
export type LowerThirdProps = Props<LowerThirdElement, 'name'>;
export type TitleCardProps = Props<TitleCardElement, 'title'>;
export type ProgressBarProps = Props<ProgressBarElement>;
export type CodeProps = Props<CodeElement, 'code'>;
export type MarkdownProps = Props<MarkdownElement, 'markdown'>;
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
/** A chart that builds on: `chart('bar', { labels: ['Q1', 'Q2'], series: [{ name: 'Sales', values: [12, 18] }] })`. */
export const chart =
  registered<(kind: ChartElement['kind'], props: ChartProps) => KinoElement<ChartElement>>('chart');
/** A terminal typing commands and printing output: `terminal({ session: [{ command: 'npm test', output: '✓ passed' }] })`. */
export const terminal = registered<(props: TerminalProps) => KinoElement<TerminalElement>>('terminal');
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

/** An arrow that draws on: `arrow({ from: { x: 0.2, y: 0.7 }, to: { x: 0.5, y: 0.4 }, curve: 0.3 })`. */
export const arrow = registered<(props: ArrowProps) => KinoElement<ArrowElement>>('arrow');
/** A note pointing at a point or an element: `callout('Live sync', { target: 'phone', x: 0.8, y: 0.3 })`. */
export const callout =
  registered<(text: string, props: CalloutProps) => KinoElement<CalloutElement>>('callout');
/** Darkens all but a hole, its own box or a target's: `spotlight({ target: 'chart', shape: 'rect' })`. */
export const spotlight = registered<(props?: SpotlightProps) => KinoElement<SpotlightElement>>('spotlight');
/** A name and title bar: `lowerThird('Ada Lovelace', { title: 'Engineer', style: 'underline' })`. */
export const lowerThird =
  registered<(name: string, props?: LowerThirdProps) => KinoElement<LowerThirdElement>>('lowerThird');
/** A headline card: `titleCard('Meet Orbit', { kicker: 'Introducing', subtitle: 'Your day, in orbit' })`. */
export const titleCard =
  registered<(title: string, props?: TitleCardProps) => KinoElement<TitleCardElement>>('titleCard');
/** A bar filled by the video's progress, the scene's, or a `value`: `progressBar({ showPercent: true })`. */
export const progressBar =
  registered<(props?: ProgressBarProps) => KinoElement<ProgressBarElement>>('progressBar');

/** Highlighted code in a window: `code('const a = 1', { language: 'ts', steps: [{ code: 'const a = 2' }] })`. */
export const code = registered<(code: string, props?: CodeProps) => KinoElement<CodeElement>>('code');
/** A Markdown slide: `markdown('# What changed\n- **faster** builds', { reveal: true })`. */
export const markdown =
  registered<(markdown: string, props?: MarkdownProps) => KinoElement<MarkdownElement>>('markdown');

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

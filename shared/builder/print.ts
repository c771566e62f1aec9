// specToCode: a JSON spec printed as a readable code composition that builds the same model. Fields
// come out in a fixed order (the schema's), so equal specs print the same code.
import { elementKind } from '../spec/elements.ts';
import type { SpecElement } from '../spec/elements.ts';
import { AudioTrackSchema } from '../spec/audio.ts';
import type { AudioTrack } from '../spec/audio.ts';
import { elementBaseShape } from '../spec/element-base.ts';
import { ANIMATABLE_PROPERTIES, AnimationSchema, SpringSchema } from '../spec/primitives.ts';
import type { Animation, Easing, Keyframe, Keyframes } from '../spec/primitives.ts';
import { SceneSchema, TransitionSchema, VideoSpecSchema } from '../spec/schema.ts';
import type { Scene, Transition, VideoSpec } from '../spec/schema.ts';
import { ASPECT_NAMES } from '../spec/sizes.ts';
import type { AspectName } from '../spec/sizes.ts';
import type { Code } from './source-layout.ts';
import { PLACEHOLDER, variableReference } from '../spec/variables.ts';
import type { VariableType } from '../spec/variable-schema.ts';
import {
  SourceLayout,
  Verbatim,
  arrayCode,
  callCode,
  chainCode,
  objectCode,
  propertyKey,
  quote,
  raw,
  templateLiteral,
  valueCode,
} from './source-layout.ts';

export interface SpecToCodeOptions {
  /** Line width to fit the code in; default 100. */
  width?: number;
}

type Entry = readonly [string, Code];

const BASE_KEYS = Object.keys(elementBaseShape);
// Where an element sits reads first, then what it is, then how it looks and when it shows.
const PLACEMENT_KEYS = ['x', 'y', 'anchor', 'width', 'height', 'box'];

function shapeKeys(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** The fields of `record` in the given order, then any others alphabetically, skipping `skip`. */
function ordered(
  record: object,
  order: readonly string[],
  skip: readonly string[] = [],
): [string, unknown][] {
  const fields = record as Record<string, unknown>;
  const rank = new Map<string, number>();
  order.forEach((key, i) => rank.has(key) || rank.set(key, i));
  return Object.keys(fields)
    .filter((key) => fields[key] !== undefined && !skip.includes(key))
    .sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => [key, fields[key]]);
}

class SpecPrinter {
  readonly imports = new Set<string>();

  call(name: string, args: Code[]): Code {
    this.imports.add(name);
    return callCode(name, args);
  }

  /** A props object, or no argument at all when it would be empty. */
  optionalProps(entries: Entry[]): Code[] {
    return entries.length === 0 ? [] : [objectCode(entries)];
  }

  fields(
    record: object,
    order: readonly string[],
    skip: readonly string[],
    special: Record<string, (v: never) => Code> = {},
  ): Entry[] {
    return ordered(record, order, skip).map(([key, value]) => {
      const print = special[key] as ((v: unknown) => Code) | undefined;
      return [propertyKey(key), print ? print(value) : valueCode(value)] as const;
    });
  }

  easing(easing: Easing): Code {
    if (typeof easing === 'object' && easing !== null) {
      const keys = Object.keys(easing);
      if (keys.length === 1 && 'spring' in easing) {
        return this.call(
          'spring',
          this.optionalProps(this.fields(easing.spring, shapeKeys(SpringSchema), [])),
        );
      }
      if (keys.length === 1 && 'cubicBezier' in easing && easing.cubicBezier.length === 4) {
        return this.call(
          'cubicBezier',
          easing.cubicBezier.map((n) => valueCode(n)),
        );
      }
    }
    return valueCode(easing);
  }

  animation(animation: Animation): Code {
    const easing = (e: Easing) => this.easing(e);
    const entries = this.fields(animation, shapeKeys(AnimationSchema), ['preset'], { easing });
    return this.call(animation.preset, this.optionalProps(entries));
  }

  transition(transition: Transition): Code {
    const easing = (e: Easing) => this.easing(e);
    const entries = this.fields(transition, shapeKeys(TransitionSchema), ['type'], { easing });
    return this.call(transition.type, this.optionalProps(entries));
  }

  audio(helper: 'music' | 'sfx', track: AudioTrack): Code {
    const entries = this.fields(track, shapeKeys(AudioTrackSchema), ['src']);
    return this.call(helper, [valueCode(track.src), ...this.optionalProps(entries)]);
  }

  keyframes(keyframes: Keyframes): Code {
    const entries = ordered(keyframes, ANIMATABLE_PROPERTIES).map(([property, frames]) => {
      const tuples = (frames as Keyframe[]).map((frame) => {
        const parts = [valueCode(frame.at), valueCode(frame.value)];
        if (frame.easing !== undefined) parts.push(this.easing(frame.easing));
        return arrayCode(parts);
      });
      return [propertyKey(property), this.call('keyframes', tuples)] as const;
    });
    return objectCode(entries);
  }

  element(element: SpecElement): Code {
    const definition = elementKind(element.type);
    if (!definition) throw new Error(`specToCode: unknown element type "${element.type}"`);
    const { name, positional, children } = definition.builder;
    const fields = element as unknown as Record<string, unknown>;
    const own = shapeKeys(definition.schema).filter((key) => key !== 'type' && !BASE_KEYS.includes(key));
    const animate = fields.animate as Animation[] | undefined;
    const keyframes = fields.keyframes as Keyframes | undefined;
    const aspects = fields.aspects as Partial<Record<AspectName, object>> | undefined;
    // Non-empty animations, keyframes and aspect overrides read best as method calls; empty ones stay
    // fields to round-trip.
    const chained = [
      ...(animate?.length ? ['animate'] : []),
      ...(keyframes && Object.keys(keyframes).length > 0 ? ['keyframes'] : []),
      ...(aspects && Object.keys(aspects).length > 0 ? ['aspects'] : []),
    ];
    const skip = ['type', ...(positional ? [positional] : []), ...(children ? ['children'] : []), ...chained];
    const props = this.fields(element, ['id', ...PLACEMENT_KEYS, ...own, ...BASE_KEYS], skip, {
      animate: (list: Animation[]) => arrayCode(list.map((a) => this.animation(a))),
      keyframes: (k: Keyframes) => this.keyframes(k),
    });

    const args: Code[] = [];
    if (positional) args.push(valueCode(fields[positional]));
    if (children) {
      const kids = (fields.children as SpecElement[] | undefined) ?? [];
      args.push(...this.optionalProps(props), arrayCode(kids.map((kid) => this.element(kid))));
    } else {
      args.push(...this.optionalProps(props));
    }
    const calls = [];
    if (chained.includes('animate'))
      calls.push({ name: 'animate', args: animate!.map((a) => this.animation(a)) });
    if (chained.includes('keyframes')) calls.push({ name: 'keyframes', args: [this.keyframes(keyframes!)] });
    for (const aspect of ASPECT_NAMES) {
      const patch = chained.includes('aspects') ? aspects![aspect] : undefined;
      if (patch) calls.push({ name: 'aspect', args: [valueCode(aspect), valueCode(patch)] });
    }
    return chainCode(this.call(name, args), calls);
  }

  scene(scene: Scene): Code {
    const props = this.fields(scene, shapeKeys(SceneSchema), ['elements'], {
      transition: (t: Transition) => this.transition(t),
      audio: (tracks: AudioTrack[]) => arrayCode(tracks.map((track) => this.audio('sfx', track))),
    });
    const args: Code[] = [objectCode(props)];
    if (scene.elements !== undefined) args.push(arrayCode(scene.elements.map((e) => this.element(e))));
    return this.call('scene', args);
  }

  video(spec: VideoSpec): Code {
    const skip = ['kinoSpec', 'scenes', 'overlays', 'audio', 'variables'];
    const props = this.fields(spec, shapeKeys(VideoSpecSchema), skip);
    const args: Code[] = [objectCode(props), arrayCode(spec.scenes.map((s) => this.scene(s)))];
    // Overlays and the soundtrack read best after the scenes: video()'s extras.
    const extras: Entry[] = [];
    if (spec.overlays !== undefined)
      extras.push(['overlays', arrayCode(spec.overlays.map((element) => this.element(element)))]);
    if (spec.audio !== undefined)
      extras.push(['audio', arrayCode(spec.audio.map((track) => this.audio('music', track)))]);
    if (extras.length > 0) args.push(objectCode(extras));
    return this.call('video', args);
  }
}

const TEMPLATE_VALUES = 'v';

/**
 * The spec with each use of a declared variable turned into code over the template's values: `{var:
 * name}` as `v.name`, a string with `{{name}}` as a template literal. Uses of undeclared names stay
 * as they are, so the printed code fails the same way the spec does.
 */
function withValueCode(value: unknown, declared: ReadonlyMap<string, VariableType>): unknown {
  if (typeof value === 'string') {
    const parts: (string | { expression: string })[] = [];
    let last = 0;
    for (const match of value.matchAll(PLACEHOLDER)) {
      if (!declared.has(match[1]!)) continue;
      parts.push(value.slice(last, match.index), { expression: `${TEMPLATE_VALUES}.${match[1]!}` });
      last = match.index + match[0].length;
    }
    if (parts.length === 0) return value;
    parts.push(value.slice(last));
    const only = parts.filter((part) => part !== '');
    // A string that is one placeholder is the value itself only for string variables; `${…}` keeps
    // any other type a string, as the spec's "{{name}}" does.
    const [sole] = only;
    if (
      only.length === 1 &&
      typeof sole === 'object' &&
      declared.get(sole.expression.slice(TEMPLATE_VALUES.length + 1)) === 'string'
    ) {
      return new Verbatim(raw(sole.expression));
    }
    return new Verbatim(raw(templateLiteral(only)));
  }
  if (Array.isArray(value)) return value.map((item) => withValueCode(item, declared));
  const name = variableReference(value);
  if (name !== undefined && declared.has(name)) return new Verbatim(raw(`${TEMPLATE_VALUES}.${name}`));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => {
        // These pick which builder prints the object; code over a value cannot pick a function name.
        if ((key === 'type' || key === 'preset') && withValueCode(field, declared) !== field) {
          throw new Error(
            `specToCode: a variable cannot choose an element's, animation's or transition's ${key}`,
          );
        }
        return [key, withValueCode(field, declared)];
      }),
    );
  }
  return value;
}

/**
 * Prints a spec as a composition file (`export default video(...)`) that builds the same model; a
 * spec with `variables` prints as `export default template({...}, (v) => video(...))`.
 */
export function specToCode(spec: VideoSpec, options: SpecToCodeOptions = {}): string {
  const layout = new SourceLayout(options.width ?? 100);
  const printer = new SpecPrinter();
  let body: string;
  if (spec.variables !== undefined) {
    const { variables, ...rest } = spec;
    const declared = new Map(Object.entries(variables).map(([name, variable]) => [name, variable.type]));
    const video = printer.video(withValueCode(rest, declared) as VideoSpec);
    printer.imports.add('template');
    body =
      'export default template(\n' +
      `  ${layout.print(valueCode(variables), 2, 2, 1)},\n` +
      `  (${TEMPLATE_VALUES}) =>\n` +
      `    ${layout.print(video, 4, 4, 1)},\n` +
      ');';
  } else {
    const prefix = 'export default ';
    body = prefix + layout.print(printer.video(spec), 0, prefix.length, 1) + ';';
  }
  const names = [...printer.imports].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const from = ` from ${quote('kino')};`;
  const oneLine = `import { ${names.join(', ')} }${from}`;
  const imports =
    oneLine.length <= layout.width ? oneLine : `import {\n${names.map((n) => `  ${n},\n`).join('')}}${from}`;
  return `${imports}\n\n${body}\n`;
}

// The value every element builder returns: an immutable element whose chainable methods return new
// values. The spec-shaped data stays private and comes out through toModel(), so no method can leak
// into the model (and `.keyframes()` can share its name with the `keyframes` field).
import type { ModelElement } from '../spec/model.ts';
import type { Animation, Keyframes } from '../spec/primitives.ts';
import type { AspectName } from '../spec/sizes.ts';
import type { Time } from '../spec/time.ts';
import { deepFreeze, plainData } from './plain-data.ts';

export type ElementProps<T extends ModelElement> = Partial<Omit<T, 'type'>>;

/** The fields an element may override for one aspect (custom elements have none). */
export type AspectPatchOf<T> = T extends { aspects?: Partial<Record<AspectName, infer P>> } ? P : never;

export class KinoElement<T extends ModelElement = ModelElement> {
  readonly #model: T;

  constructor(model: T) {
    this.#model = deepFreeze(plainData(model));
  }

  get type(): T['type'] {
    return this.#model.type;
  }

  /** The element as spec-shaped model data (a fresh copy). */
  toModel(): T {
    return plainData(this.#model);
  }

  toJSON(): T {
    return this.toModel();
  }

  /** Adds animations after the ones the element already has. */
  animate(...animations: Animation[]): KinoElement<T> {
    return this.#derive({ animate: [...(this.#model.animate ?? []), ...animations] } as ElementProps<T>);
  }

  /** Sets keyframes per property; a property given again replaces its earlier keyframes. */
  keyframes(keyframes: Keyframes): KinoElement<T> {
    return this.#derive({ keyframes: { ...this.#model.keyframes, ...keyframes } } as ElementProps<T>);
  }

  /** When the element appears, from the scene start. */
  at(start: Time): KinoElement<T> {
    return this.#derive({ start } as ElementProps<T>);
  }

  /** How long the element stays. */
  for(duration: Time): KinoElement<T> {
    return this.#derive({ duration } as ElementProps<T>);
  }

  /**
   * Overrides for one aspect, merged over any it has for it: `.aspect('reels', { x: 0.5, size: 64 })`
   * draws the element with those fields when the video is rendered as a reel.
   */
  aspect(name: AspectName, patch: AspectPatchOf<T>): KinoElement<T> {
    const aspects = (this.#model as { aspects?: Partial<Record<AspectName, object>> }).aspects;
    const merged = { ...aspects, [name]: { ...aspects?.[name], ...patch } };
    return this.#derive({ aspects: merged } as unknown as ElementProps<T>);
  }

  /** The same element with some fields replaced (undefined removes a field). */
  with(props: ElementProps<T>): KinoElement<T> {
    return this.#derive(props);
  }

  #derive(props: ElementProps<T>): KinoElement<T> {
    const { type: _ignored, ...rest } = props as ElementProps<T> & { type?: unknown };
    return new KinoElement({ ...this.#model, ...rest } as T);
  }
}

/** What element lists accept: builder values, or plain model elements (e.g. pasted from a JSON spec). */
export type ElementInput<T extends ModelElement = ModelElement> = KinoElement<T> | T;

function hasToModel(value: unknown): value is { toModel(): ModelElement } {
  return typeof (value as { toModel?: unknown } | null)?.toModel === 'function';
}

export function toModelElement(input: ElementInput): ModelElement {
  // Duck-typed so values built by another copy of this module (a second bundle) still convert.
  if (hasToModel(input)) return input.toModel();
  if (typeof input !== 'object' || input === null || typeof (input as { type?: unknown }).type !== 'string') {
    throw new TypeError(`expected an element (e.g. text('Hi')), got ${describeValue(input)}`);
  }
  return plainData(input);
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'an object without a "type"' : String(value);
}

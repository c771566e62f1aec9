// template(variables, build): a composition whose values a render fills in, the code twin of a JSON
// spec with `variables`. A render checks its values against the declarations (the same rules as
// for a JSON template) and calls `build` with them, so code reads real values: `v.count * 2` and
// `v.showLogo ? … : …` work. `templateSpec` calls it with stand-ins instead (`"{{name}}"`, or
// `{var: name}` for other types), which gives back the JSON template that specToCode printed.
import type { VideoModel } from '../spec/model.ts';
import type { Variables } from '../spec/variable-schema.ts';
import { VariableBindingError, parseVariables, resolveVariableValues } from '../spec/variables.ts';
import type { BoundValue, VariableValues } from '../spec/variables.ts';
import { describeValue } from './element.ts';
import { plainData } from './plain-data.ts';

/** The value type each declared variable type binds to. */
type ValueOf<T> = T extends 'number' ? number : T extends 'boolean' ? boolean : string;
export type TemplateValues<D extends Variables> = { readonly [K in keyof D]: ValueOf<D[K]['type']> };

// A registered symbol: a composition bundles its own copy of the builder, so `instanceof` would
// not recognise a template made by that copy.
const TEMPLATE_BRAND = Symbol.for('kino.template');

export interface KinoTemplate<D extends Variables = Variables> {
  readonly [TEMPLATE_BRAND]: true;
  readonly variables: D;
  readonly build: (values: TemplateValues<D>) => VideoModel | Promise<VideoModel>;
}

/**
 * `export default template({ title: { type: 'string', default: 'Hello' } }, (v) => video({...}, [
 * scene({ duration: '3s' }, [text(v.title)]) ]))`.
 */
export function template<const D extends Variables>(
  variables: D,
  build: (values: TemplateValues<D>) => VideoModel | Promise<VideoModel>,
): KinoTemplate<D> {
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
    throw new TypeError(
      `template(): expected variables like { title: { type: 'string' } }, got ${describeValue(variables)}`,
    );
  }
  if (typeof build !== 'function') {
    throw new TypeError(`template(): expected a function (v) => video(...), got ${describeValue(build)}`);
  }
  return { [TEMPLATE_BRAND]: true, variables: plainData(variables), build };
}

export function isKinoTemplate(value: unknown): value is KinoTemplate {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TEMPLATE_BRAND] === true
  );
}

/**
 * The values a template builds with: `given` checked against its declarations, defaults filled in.
 * Throws a VariableBindingError naming each value that does not fit.
 */
export function templateValues(
  kinoTemplate: KinoTemplate | undefined,
  given: VariableValues = {},
): Record<string, BoundValue> {
  const declared = parseVariables({ variables: kinoTemplate?.variables });
  if (!declared.ok) throw new VariableBindingError(declared.issues);
  const resolved = resolveVariableValues(declared.variables ?? {}, given);
  if (!resolved.ok) throw new VariableBindingError(resolved.issues);
  return resolved.values;
}

/**
 * The video a composition's default export gives, in Node and in the browser alike: a template
 * built with `values` (checked first, so a VariableBindingError comes before any of the
 * composition's code runs), a function called, a promise awaited, a model as it is. Values given
 * to a composition that is not a template are refused as unknown.
 */
export async function videoFromExport(exported: unknown, values: VariableValues = {}): Promise<unknown> {
  const kinoTemplate = isKinoTemplate(exported) ? exported : undefined;
  const bound = templateValues(kinoTemplate, values);
  const value = kinoTemplate
    ? await buildTemplate(kinoTemplate, bound)
    : typeof exported === 'function'
      ? await (exported as () => unknown)()
      : await exported;
  if (typeof value === 'function') throw new Error('the default export returned a function, not a video');
  return value;
}

/** Builds the video with values already checked against the declarations. */
export async function buildTemplate(
  kinoTemplate: KinoTemplate,
  values: Record<string, BoundValue>,
): Promise<VideoModel> {
  return kinoTemplate.build(values as TemplateValues<Variables>);
}

/**
 * A stand-in for a non-string variable: spec data `{var: name}`, and `"{{name}}"` when code puts it
 * into a string (`${v.price} €`).
 */
function reference(name: string): { var: string } {
  const ref = { var: name };
  Object.defineProperty(ref, Symbol.toPrimitive, { value: () => `{{${name}}}`, enumerable: false });
  return ref;
}

/** The template as a JSON template spec: `variables` declared, uses left as placeholders. */
export async function templateSpec(kinoTemplate: KinoTemplate): Promise<VideoModel> {
  const standIns = Object.fromEntries(
    Object.entries(kinoTemplate.variables).map(([name, variable]) => [
      name,
      variable.type === 'string' ? `{{${name}}}` : reference(name),
    ]),
  );
  const model = plainData(await kinoTemplate.build(standIns as unknown as TemplateValues<Variables>));
  const { kinoSpec, title, ...rest } = model;
  return {
    kinoSpec,
    ...(title !== undefined ? { title } : {}),
    variables: plainData(kinoTemplate.variables),
    ...rest,
  };
}

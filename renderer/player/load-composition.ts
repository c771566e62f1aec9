// Imports one build of the composition bundle and turns its default export into a checked model,
// as main/composition/load.ts does in Node: a model, a function or promise giving one, a template
// built with the values given (its defaults for the rest), or a JSON spec's data bound and checked
// by the same shared code a render uses (shared/timeline/check-spec.ts).
import { isKinoTemplate, videoFromExport } from '../../shared/builder/template.ts';
import { assertModel } from '../../shared/builder/validate-model.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { Variables } from '../../shared/spec/variable-schema.ts';
import { parseVariables } from '../../shared/spec/variables.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { specModel } from '../../shared/timeline/check-spec.ts';
import { PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import { previewRoute } from './route-base.ts';

/** The bundle's default export: a JSON spec's data, or what a code composition exports. */
export async function importExport(buildId: string): Promise<unknown> {
  // A new URL per build: the browser caches modules by URL, so a changed source needs a new one.
  const url = `${previewRoute(PREVIEW_ROUTES.composition)}?build=${encodeURIComponent(buildId)}`;
  const module = (await import(url)) as { default?: unknown };
  if (module.default === undefined) {
    throw new Error('no default export: end the file with `export default video({...}, [scene(...)])`');
  }
  return module.default;
}

/**
 * The video `exported` gives with `values`: a JSON spec (`asSpec`) is bound and checked as a render
 * checks it; code goes through videoFromExport. Throws a VariableBindingError or SpecValidationError
 * (each with its issues) when it does not fit.
 */
export async function mountExport(
  exported: unknown,
  values: VariableValues = {},
  asSpec = false,
): Promise<VideoModel> {
  if (asSpec) return specModel(exported, values);
  return assertModel(await videoFromExport(exported, values));
}

/** What a template declares (a JSON spec's `variables`, a template()'s), when it is one. */
export function declaredVariables(exported: unknown, asSpec = false): Variables | undefined {
  if (isKinoTemplate(exported)) return exported.variables;
  if (!asSpec) return undefined;
  const parsed = parseVariables(exported);
  return parsed.ok ? parsed.variables : undefined;
}

export async function importModel(buildId: string): Promise<VideoModel> {
  return mountExport(await importExport(buildId));
}

// Imports one build of the composition bundle and turns its default export into a checked model,
// as main/composition/load.ts does in Node: a model, a function or promise giving one, or a
// template built with its defaults.
import { videoFromExport } from '../../shared/builder/template.ts';
import { assertModel } from '../../shared/builder/validate-model.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import { previewRoute } from './route-base.ts';

export async function importModel(buildId: string): Promise<VideoModel> {
  // A new URL per build: the browser caches modules by URL, so a changed source needs a new one.
  const url = `${previewRoute(PREVIEW_ROUTES.composition)}?build=${encodeURIComponent(buildId)}`;
  const module = (await import(url)) as { default?: unknown };
  if (module.default === undefined) {
    throw new Error('no default export: end the file with `export default video({...}, [scene(...)])`');
  }
  return assertModel(await videoFromExport(module.default));
}

// What a code composition declares as a template: its variables and title (read by building it with
// stand-ins), and the modules it imports, whose changes make a cached reading stale.
import { templateSpec } from '../../shared/builder/template.ts';
import type { Variables } from '../../shared/spec/variable-schema.ts';
import { LoadedComposition } from '../composition/load.ts';

export interface CompositionDeclarations {
  variables: Variables | undefined;
  title?: string;
  modules: string[];
}

export async function compositionDeclarations(entry: string): Promise<CompositionDeclarations> {
  const loaded = await LoadedComposition.load(entry);
  const found = loaded.template;
  const title = found ? (await templateSpec(found)).title : undefined;
  return { variables: found?.variables, ...(title ? { title } : {}), modules: loaded.modules };
}

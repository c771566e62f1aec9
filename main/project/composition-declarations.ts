// What a code composition declares as a template: its variables and title (read by building it with
// stand-ins), and the modules it imports, whose changes make a cached reading stale.
import { templateSpec } from '../../shared/builder/template.ts';
import type { KinoTemplate } from '../../shared/builder/template.ts';
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
  return {
    variables: found?.variables,
    ...(found ? await titleOf(found) : {}),
    modules: loaded.modules,
  };
}

/**
 * The template's title, read by building it with stand-ins. Code is free to do what stand-ins do
 * not support (`v.price.toFixed(2)`); then the template simply has no title in listings.
 */
async function titleOf(found: KinoTemplate): Promise<{ title?: string }> {
  try {
    const { title } = await templateSpec(found);
    return typeof title === 'string' ? { title } : {};
  } catch {
    return {};
  }
}

// What `kino render <input>` renders: a spec file, a composition file, or a key registered in the
// render project, each loaded into a validated video model together with its project.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { compositionEntryKind } from '../../shared/project/config.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { SpecIssue } from '../../shared/spec/validate.ts';
import { VariableBindingError } from '../../shared/spec/variables.ts';
import type { VariableIssue, VariableValues } from '../../shared/spec/variables.ts';
import { semanticIssues } from '../../shared/timeline/check.ts';
import { checkSpec } from '../../shared/timeline/check-spec.ts';
import { LoadedComposition } from '../composition/load.ts';
import { KinoInputError, describeIssues } from './input-error.ts';
import { readJsonFile } from './json-file.ts';
import { defaultProjectDir, loadProject, projectForFile } from './load.ts';
import type { RenderProject } from './load.ts';

export { KinoInputError } from './input-error.ts';
export { checkSpec } from '../../shared/timeline/check-spec.ts';

export interface ResolvedRenderInput {
  kind: 'spec' | 'composition' | 'key';
  model: VideoModel;
  project: RenderProject;
  /** The spec or composition file the model came from. */
  sourcePath?: string;
  /** The render key, when the input was one. */
  key?: string;
  /** A composition's local modules besides its entry (Kino's own left out), for the receipt. */
  modules?: string[];
  /** The template variable values the render was asked for (defaults not included). */
  variables?: VariableValues;
}

function invalid(file: string, issues: (SpecIssue | VariableIssue)[]): KinoInputError {
  if (issues.some((issue) => 'in' in issue && issue.in === 'variables')) {
    return new KinoInputError(`${file}: ${issues.map((issue) => issue.message).join('; ')}`, { issues });
  }
  return new KinoInputError(`${file}: invalid spec (${describeIssues(issues)})`, { issues });
}

/** Reads and validates a JSON spec file, binding `values` to its variables. */
export async function loadSpecFile(file: string, values: VariableValues = {}): Promise<VideoModel> {
  const result = checkSpec(await readJsonFile(file, 'spec'), values);
  if (!result.ok) throw invalid(file, result.issues);
  return result.spec;
}

async function loadCompositionFile(
  file: string,
  values: VariableValues,
): Promise<{ model: VideoModel; modules: string[] }> {
  const loaded = await LoadedComposition.load(file);
  let model: VideoModel;
  try {
    model = await loaded.mount(values);
  } catch (error) {
    if (error instanceof VariableBindingError) throw invalid(file, error.issues);
    throw error;
  }
  const issues = semanticIssues(model);
  if (issues.length > 0) throw invalid(file, issues);
  return { model, modules: loaded.modules };
}

async function requireFile(file: string, what: string): Promise<void> {
  const found = await stat(file).catch(() => undefined);
  if (!found) throw new KinoInputError(`${what} ${file} not found: check the path`);
  if (!found.isFile()) throw new KinoInputError(`${what} ${file} is a folder, not a file`);
}

/** The values as the resolved input records them: left out when none were given. */
const asked = (values: VariableValues) => (Object.keys(values).length > 0 ? { variables: values } : {});

const KEY_LIKE = /^[a-z0-9][a-z0-9-]*$/;

/** Loads the composition or spec registered as `key` in the project at `projectDir`. */
export async function resolveKey(
  key: string,
  projectDir = defaultProjectDir(),
  values: VariableValues = {},
): Promise<ResolvedRenderInput> {
  const project = await loadProject(projectDir);
  const entry = project.compositions.get(key);
  if (!entry) {
    const known = [...project.compositions.keys()].sort();
    throw new KinoInputError(
      `unknown composition key "${key}" in project ${project.root}: ` +
        (known.length > 0 ? `known keys are ${known.join(', ')}` : 'its kino.json registers none'),
    );
  }
  await requireFile(entry, `composition "${key}" points to`);
  const variables = asked(values);
  if (compositionEntryKind(entry) === 'spec') {
    const model = await loadSpecFile(entry, values);
    return { kind: 'key', model, project, sourcePath: entry, key, ...variables };
  }
  const { model, modules } = await loadCompositionFile(entry, values);
  return { kind: 'key', model, project, sourcePath: entry, key, modules, ...variables };
}

/**
 * Resolves `input` (from the command line, relative to `cwd`): "*.json" is a spec, "*.ts" a
 * composition, anything else a key of the default project (examples/, or RENDER_PROJECT).
 */
export async function resolveRenderInput(
  input: string,
  cwd: string,
  values: VariableValues = {},
): Promise<ResolvedRenderInput> {
  const extension = path.extname(input).toLowerCase();
  const variables = asked(values);
  if (extension === '.json' || extension === '.ts') {
    const file = path.resolve(cwd, input);
    const kind = extension === '.json' ? 'spec' : 'composition';
    await requireFile(file, kind);
    if (kind === 'spec') {
      const model = await loadSpecFile(file, values);
      return { kind, model, project: await projectForFile(file), sourcePath: file, ...variables };
    }
    const { model, modules } = await loadCompositionFile(file, values);
    return { kind, model, project: await projectForFile(file), sourcePath: file, modules, ...variables };
  }
  if (!KEY_LIKE.test(input)) {
    throw new KinoInputError(
      `cannot render "${input}": expected a spec (.json), a composition (.ts) or a composition key like "product-launch"`,
    );
  }
  return resolveKey(input, undefined, values);
}

/**
 * The composition file (and values) a render's worker threads load the model from when it holds
 * custom drawing, which cannot be copied into a thread; undefined for a spec.
 */
export function compositionSource(
  input: ResolvedRenderInput,
): { path: string; variables?: VariableValues } | undefined {
  if (input.modules === undefined || !input.sourcePath) return undefined;
  return { path: input.sourcePath, ...(input.variables ? { variables: input.variables } : {}) };
}

// What `kino render <input>` renders: a spec file, a composition file, or a key registered in the
// render project, each loaded into a validated video model together with its project.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { compositionEntryKind } from '../../shared/project/config.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import { parseSpec } from '../../shared/spec/validate.ts';
import type { SpecIssue } from '../../shared/spec/validate.ts';
import { semanticIssues } from '../../shared/timeline/check.ts';
import { LoadedComposition } from '../composition/load.ts';
import { KinoInputError, describeIssues } from './input-error.ts';
import { readJsonFile } from './json-file.ts';
import { defaultProjectDir, loadProject, projectForFile } from './load.ts';
import type { RenderProject } from './load.ts';

export { KinoInputError } from './input-error.ts';

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
}

function invalid(file: string, issues: SpecIssue[]): KinoInputError {
  return new KinoInputError(`${file}: invalid spec (${describeIssues(issues)})`, { issues });
}

/** Validates spec data: schema first, then the timeline's own rules (ids, triggers, timing). */
export function checkSpec(
  value: unknown,
): { ok: true; spec: VideoSpec } | { ok: false; issues: SpecIssue[] } {
  const result = parseSpec(value);
  if (!result.ok) return result;
  const issues = semanticIssues(result.spec);
  return issues.length > 0 ? { ok: false, issues } : result;
}

/** Reads and validates a JSON spec file. */
export async function loadSpecFile(file: string): Promise<VideoModel> {
  const result = checkSpec(await readJsonFile(file, 'spec'));
  if (!result.ok) throw invalid(file, result.issues);
  return result.spec;
}

async function loadCompositionFile(file: string): Promise<{ model: VideoModel; modules: string[] }> {
  const loaded = await LoadedComposition.load(file);
  const model = await loaded.mount();
  const issues = semanticIssues(model);
  if (issues.length > 0) throw invalid(file, issues);
  return { model, modules: loaded.modules };
}

async function requireFile(file: string, what: string): Promise<void> {
  const found = await stat(file).catch(() => undefined);
  if (!found) throw new KinoInputError(`${what} ${file} not found: check the path`);
  if (!found.isFile()) throw new KinoInputError(`${what} ${file} is a folder, not a file`);
}

const KEY_LIKE = /^[a-z0-9][a-z0-9-]*$/;

/** Loads the composition or spec registered as `key` in the project at `projectDir`. */
export async function resolveKey(
  key: string,
  projectDir = defaultProjectDir(),
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
  if (compositionEntryKind(entry) === 'spec') {
    return { kind: 'key', model: await loadSpecFile(entry), project, sourcePath: entry, key };
  }
  const { model, modules } = await loadCompositionFile(entry);
  return { kind: 'key', model, project, sourcePath: entry, key, modules };
}

/**
 * Resolves `input` (from the command line, relative to `cwd`): "*.json" is a spec, "*.ts" a
 * composition, anything else a key of the default project (examples/, or RENDER_PROJECT).
 */
export async function resolveRenderInput(input: string, cwd: string): Promise<ResolvedRenderInput> {
  const extension = path.extname(input).toLowerCase();
  if (extension === '.json' || extension === '.ts') {
    const file = path.resolve(cwd, input);
    const kind = extension === '.json' ? 'spec' : 'composition';
    await requireFile(file, kind);
    if (kind === 'spec') {
      const model = await loadSpecFile(file);
      return { kind, model, project: await projectForFile(file), sourcePath: file };
    }
    const { model, modules } = await loadCompositionFile(file);
    return { kind, model, project: await projectForFile(file), sourcePath: file, modules };
  }
  if (!KEY_LIKE.test(input)) {
    throw new KinoInputError(
      `cannot render "${input}": expected a spec (.json), a composition (.ts) or a composition key like "product-launch"`,
    );
  }
  return resolveKey(input);
}

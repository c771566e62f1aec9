// Loading a render project: a folder with kino.json (or kino.config.ts) naming its compositions,
// assets folder, fonts and remote-media policy.
import { realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_ASSETS_DIR, PROJECT_CONFIG_FILES, parseProjectConfig } from '../../shared/project/config.ts';
import type { ProjectConfig } from '../../shared/project/config.ts';
import type { FontFace } from '../../shared/spec/schema.ts';
import { formatIssues } from '../../shared/spec/validate.ts';
import { compileComposition } from '../composition/compile.ts';
import { MediaPolicySchema } from '../media/policy.ts';
import type { MediaPolicy } from '../media/policy.ts';
import { KinoInputError, describeIssues } from './input-error.ts';
import { readJsonFile } from './json-file.ts';

export interface RenderProject {
  /** Absolute, symlinks resolved. */
  root: string;
  name: string;
  /** The config file it was loaded from; undefined for a folder without one (default settings). */
  configPath: string | undefined;
  /** Absolute folder where "asset:" sources are looked up. */
  assetsDir: string;
  /** Render keys to absolute paths of compositions (.ts) and specs (.json). */
  compositions: Map<string, string>;
  fonts: FontFace[];
  media: MediaPolicy;
}

/** The repository's examples/ project, or the folder named by RENDER_PROJECT. */
export function defaultProjectDir(): string {
  const fromEnv = process.env.RENDER_PROJECT;
  if (fromEnv) return path.resolve(fromEnv);
  return fileURLToPath(new URL('../../examples', import.meta.url));
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/** The config file in `dir`, if it has one. */
export async function findProjectConfig(dir: string): Promise<string | undefined> {
  const present: string[] = [];
  for (const name of PROJECT_CONFIG_FILES) {
    if (await isFile(path.join(dir, name))) present.push(path.join(dir, name));
  }
  if (present.length > 1) {
    throw new KinoInputError(`${dir} has both ${PROJECT_CONFIG_FILES.join(' and ')}: keep only one`);
  }
  return present[0];
}

/** The nearest folder at or above `dir` holding a project config. */
export async function findProjectRoot(dir: string): Promise<string | undefined> {
  let current = path.resolve(dir);
  for (;;) {
    if (await findProjectConfig(current)) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

async function importConfigModule(file: string): Promise<unknown> {
  const { bundlePath } = await compileComposition(file);
  let exported: unknown;
  try {
    exported = ((await import(pathToFileURL(bundlePath).href)) as { default?: unknown }).default;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new KinoInputError(`${file}: failed while loading: ${reason}`, { cause: error });
  } finally {
    await rm(bundlePath, { force: true });
  }
  if (exported === undefined) {
    throw new KinoInputError(
      `${file}: no default export: end the file with \`export default { compositions: {...} }\``,
    );
  }
  return typeof exported === 'function' ? await (exported as () => unknown)() : exported;
}

async function readConfig(file: string): Promise<ProjectConfig> {
  const raw = file.endsWith('.json')
    ? await readJsonFile(file, 'project config')
    : await importConfigModule(file);
  const result = parseProjectConfig(raw);
  if (!result.ok) {
    throw new KinoInputError(`${file}: invalid project config (${describeIssues(result.issues)})`, {
      issues: result.issues,
    });
  }
  return result.config;
}

async function projectRootDir(dir: string): Promise<string> {
  const root = await realpath(dir).catch(() => undefined);
  if (!root || !(await stat(root)).isDirectory()) {
    throw new KinoInputError(
      `project folder ${path.resolve(dir)} not found: check the path (or RENDER_PROJECT)`,
    );
  }
  return root;
}

function projectFromConfig(
  root: string,
  configPath: string | undefined,
  config: ProjectConfig,
): RenderProject {
  return {
    root,
    name: config.name ?? path.basename(root),
    configPath,
    assetsDir: path.resolve(root, config.assetsDir ?? DEFAULT_ASSETS_DIR),
    compositions: new Map(
      Object.entries(config.compositions ?? {}).map(([key, entry]) => [key, path.resolve(root, entry)]),
    ),
    fonts: config.fonts ?? [],
    media: mediaPolicy(config, configPath),
  };
}

/** The config's media fields over the policy defaults, checked by the media module's own rules. */
function mediaPolicy(config: ProjectConfig, configPath: string | undefined): MediaPolicy {
  const result = MediaPolicySchema.safeParse(config.media ?? {});
  if (result.success) return result.data;
  const issues = formatIssues(result.error).map((issue) => ({ ...issue, pointer: `/media${issue.pointer}` }));
  throw new KinoInputError(
    `${configPath ?? 'project config'}: invalid project config (${describeIssues(issues)})`,
    {
      issues,
    },
  );
}

/** Loads the project in `dir`, which must hold kino.json or kino.config.ts. */
export async function loadProject(dir: string): Promise<RenderProject> {
  const root = await projectRootDir(dir);
  const configPath = await findProjectConfig(root);
  if (!configPath) {
    throw new KinoInputError(`${root} is not a render project: add a kino.json (see examples/kino.json)`);
  }
  return projectFromConfig(root, configPath, await readConfig(configPath));
}

/** A folder without a config, with every setting at its default (for loose specs and compositions). */
export async function defaultProject(dir: string): Promise<RenderProject> {
  return projectFromConfig(await projectRootDir(dir), undefined, {});
}

/** The project a loose file belongs to: the nearest config above it, else its own folder. */
export async function projectForFile(file: string): Promise<RenderProject> {
  const dir = path.dirname(path.resolve(file));
  const root = await findProjectRoot(dir);
  return root ? loadProject(root) : defaultProject(dir);
}

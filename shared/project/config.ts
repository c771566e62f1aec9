// The render project config (kino.json, or kino.config.ts default-exporting the same object): which
// compositions the project holds, where its assets live, its fonts and its remote-media policy.
import { z } from 'zod';
import { FontFaceSchema } from '../spec/schema.ts';
import type { SpecIssue } from '../spec/validate.ts';
import { formatIssues } from '../spec/validate.ts';

export const PROJECT_CONFIG_FILES = ['kino.json', 'kino.config.ts'] as const;
export const DEFAULT_ASSETS_DIR = 'assets';

export const COMPOSITION_KEY_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Why a relative path would leave the project, or undefined when it stays inside. Paths are written
 * with "/" on every platform, so "C:\x", "\\server\x" and "/x" are all absolute here.
 */
export function projectPathProblem(path: string): string | undefined {
  if (/^([a-z]:)?[\\/]/i.test(path) || /^[a-z]:/i.test(path)) return 'must be relative to the project folder';
  if (path.includes('\\')) return 'use "/" to separate folders';
  if (path.split('/').includes('..')) return 'must stay inside the project folder (no "..")';
  return undefined;
}

const ProjectPathSchema = z
  .string()
  .min(1)
  .max(1024)
  .superRefine((path, ctx) => {
    const problem = projectPathProblem(path);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const CompositionEntrySchema = ProjectPathSchema.refine((path) => /\.(ts|json)$/.test(path), {
  message: 'expected a composition (.ts) or a spec (.json) file',
});

export const CompositionKeySchema = z.string().regex(COMPOSITION_KEY_PATTERN);

/**
 * The config's remote-media policy. The Node side owns the full policy (defaults, host matching);
 * this is the shape a config may write, every field optional.
 */
export const ProjectMediaSchema = z.strictObject({
  allowHosts: z
    .array(z.string().min(1).max(255))
    .max(256)
    .optional()
    .describe('Hosts remote media may come from: exact hosts, or "*.example.com" for any subdomain.'),
  maxBytes: z.number().int().positive().optional().describe('Largest download accepted, in bytes.'),
  timeoutMs: z.number().int().positive().optional().describe('Time allowed per download, in milliseconds.'),
  maxRedirects: z.number().int().min(0).max(20).optional().describe('Redirects followed per download.'),
  maxImagePixels: z
    .number()
    .int()
    .positive()
    .max(2 ** 27)
    .optional()
    .describe('Largest still image decoded, in pixels (width × height; default 40 million).'),
});
export type ProjectMedia = z.infer<typeof ProjectMediaSchema>;

export const ProjectConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: z.string().min(1).max(200).optional().describe('Shown in listings; default the folder name.'),
    assetsDir: ProjectPathSchema.optional().describe(
      'Where "asset:" sources are looked up; default "assets".',
    ),
    compositions: z
      .record(CompositionKeySchema, CompositionEntrySchema, {
        error: (issue) =>
          issue.code === 'invalid_key'
            ? 'invalid key: use lower case letters, digits and "-", like "product-launch"'
            : undefined,
      })
      .optional()
      .describe('Render keys, each naming a composition (.ts) or spec (.json) file in the project.'),
    fonts: z.array(FontFaceSchema).max(64).optional().describe('Font families every composition may use.'),
    media: ProjectMediaSchema.optional(),
  })
  .describe('A Kino render project (kino.json).');
export type ProjectConfig = z.infer<typeof ProjectConfigSchema>;

export type ProjectConfigParseResult =
  { ok: true; config: ProjectConfig } | { ok: false; issues: SpecIssue[] };

export function parseProjectConfig(input: unknown): ProjectConfigParseResult {
  const result = ProjectConfigSchema.safeParse(input);
  if (result.success) return { ok: true, config: result.data };
  return { ok: false, issues: formatIssues(result.error) };
}

/** What a composition entry holds, by its file name. */
export function compositionEntryKind(path: string): 'spec' | 'composition' {
  return path.endsWith('.json') ? 'spec' : 'composition';
}

// What a model is told: the spec guide (the same text llms.txt serves), the project's assets, the
// requested aspect and format, the spec's compact schema when the structured output is not it (an
// edit answers with a patch), and, on a repair, every error at its pointer and every finding with its
// remedy.
import { authoringSpecSchema } from './model-schema.ts';
import type { SpecIssue } from '../../shared/spec/validate.ts';
import type { AuthoringFinding } from '../../shared/protocol/authoring-record.ts';
import { specGuide } from './spec-guide.ts';

export interface AuthoringContext {
  assets: readonly string[];
  aspect: string | undefined;
  format: string;
}

export function systemInstructions(
  context: AuthoringContext,
  mode: 'prompt' | 'edit',
  withSpecSchema: boolean,
): string {
  const answer =
    mode === 'prompt'
      ? 'Answer with one JSON object: the whole video spec, "kinoSpec": 1 included. No prose, no Markdown.'
      : 'Answer with one JSON object {"patch": [...]}: an RFC 6902 JSON Patch that turns the base spec into the changed one, each operation {op, path, from, value} with `value` written as JSON text ("\\"New title\\"", "96", "{\\"type\\":\\"text\\",…}") and null where the operation has none. Change only what the request asks for; leave every other scene, element and value as it is. No prose, no Markdown.';
  return [
    'You write video specs for Kino, which renders them to video files. Specs are JSON, validated against one strict schema, then reviewed on rendered frames (text size, contrast, overflow, safe area, time on screen).',
    answer,
    `Output: ${context.format}${context.aspect ? `, aspect ${context.aspect}` : ''}.`,
    context.assets.length > 0
      ? `Media: use only these project files, by these names (no http URLs):\n${context.assets.map((asset) => `- ${asset}`).join('\n')}`
      : 'Media: the project has no files; use colors, gradients, shapes and text only (no image, clip or audio sources).',
    specGuide({ templates: false }),
    ...(withSpecSchema
      ? [`## The JSON Schema every spec must satisfy\n\n${JSON.stringify(authoringSpecSchema())}`]
      : []),
  ].join('\n\n');
}

export function promptMessage(prompt: string): string {
  return `Write the spec for this video:\n\n${prompt}`;
}

export function editMessage(base: unknown, change: string): string {
  return `The base spec:\n\n${JSON.stringify(base)}\n\nThe change to make:\n\n${change}`;
}

/** The repair request: what the last answer got wrong, in full. */
export function repairMessage(
  mode: 'prompt' | 'edit',
  errors: readonly SpecIssue[],
  findings: readonly AuthoringFinding[],
): string {
  const lines = [
    mode === 'prompt'
      ? 'That spec has problems. Fix every one and answer with the whole corrected spec.'
      : 'That patch gives a spec with problems. Fix every one and answer with a new patch against the ORIGINAL base spec.',
  ];
  if (errors.length > 0) {
    lines.push('', 'Errors (each at its JSON pointer):');
    for (const error of errors) lines.push(`- ${error.pointer || '/'}: ${error.message}`);
  }
  if (findings.length > 0) {
    lines.push('', 'Review findings on the rendered frames:');
    for (const finding of findings) {
      lines.push(
        `- ${finding.code}${finding.pointer ? ` at ${finding.pointer}` : ''}: ${finding.message} Fix: ${finding.remedy}`,
      );
    }
  }
  return lines.join('\n');
}

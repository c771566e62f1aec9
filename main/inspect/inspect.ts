// Inspect: what a composition is made of, as JSON facts (its timeline and the files it reads) plus
// short warnings about what will not work as written. Reads files but draws and downloads nothing.
import type { VideoModel } from '../../shared/spec/model.ts';
import type { Aspect } from '../../shared/spec/sizes.ts';
import { semanticIssues } from '../../shared/timeline/check.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import { collectResourceFacts } from './resource-facts.ts';
import type { ResourceFacts } from '../../shared/protocol/inspect.ts';
import { timelineFacts } from './timeline-facts.ts';
import type { InspectResult } from '../../shared/protocol/inspect.ts';

export interface InspectOptions {
  model: VideoModel;
  project: RenderProjectContext;
  /** An aspect name or a pixel size; default the model's aspect. */
  aspect?: Aspect | undefined;
  /** The timeline already resolved for this model and aspect (the workspace has one), to reuse. */
  video?: ResolvedVideo | undefined;
  signal?: AbortSignal | undefined;
}

function resourceWarnings(resources: ResourceFacts): string[] {
  const warnings: string[] = [];
  for (const asset of resources.assets) {
    if (asset.missing !== undefined)
      warnings.push(`${asset.kind} "${asset.src}" cannot be used: ${asset.missing}`);
    else if (asset.remote === 'not-downloaded')
      warnings.push(
        `${asset.kind} "${asset.src}" is remote and not downloaded yet; the render will fetch it`,
      );
  }
  for (const font of resources.fonts) {
    if (font.origin === 'undeclared') {
      warnings.push(
        `font "${font.family}" is neither bundled nor declared in fonts; text in it falls back to another face`,
      );
    } else if (font.missing !== undefined) {
      warnings.push(`font file "${font.src}" (family "${font.family}") cannot be used: ${font.missing}`);
    }
  }
  return warnings;
}

export async function inspectComposition(options: InspectOptions): Promise<InspectResult> {
  const { model, project, signal } = options;
  const video = options.video ?? resolveTimeline(model, { aspect: options.aspect });
  const resources = await collectResourceFacts(model, video, project, signal);
  const warnings = [
    ...semanticIssues(model).map((issue) => `${issue.pointer || '/'}: ${issue.message}`),
    ...resourceWarnings(resources),
  ];
  return { timeline: timelineFacts(video), resources, warnings };
}

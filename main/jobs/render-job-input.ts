// The first step of every render job: its input (a key, a spec, a prompt or an edit) resolved into
// the model it renders, with the spec and code the job shows and the subject its receipt names.
import { readFile } from 'node:fs/promises';
import { specToCode } from '../../shared/builder/print.ts';
import { compositionEntryKind } from '../../shared/project/config.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import { parseSpec } from '../../shared/spec/validate.ts';
import { bindsTemplate } from '../../shared/spec/variables.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { subjectOf } from '../engine/receipt.ts';
import type { ReceiptSubject } from '../engine/receipt.ts';
import { KinoInputError } from '../project/input-error.ts';
import { loadProject } from '../project/load.ts';
import type { RenderProject } from '../project/load.ts';
import { checkSpec, compositionSource, resolveKey } from '../project/resolve-input.ts';
import type { RenderInput } from './job-store.ts';
import { authorAssignment } from './render-job-authoring.ts';
import type { RenderAssignment, RenderJobChannel } from './render-job-messages.ts';

/** A render job's input, resolved: what every later step renders, reviews or names. */
export interface ResolvedInput {
  model: VideoModel;
  project: RenderProject;
  spec: Record<string, unknown> | null;
  code: string | null;
  /** What the receipt says was rendered. */
  subject: ReceiptSubject;
  /** The composition file worker threads load a model with custom drawing from. */
  composition?: { path: string; variables?: VariableValues } | undefined;
}

/** The model as JSON spec data, when it is plain data (a composition with custom drawing is not). */
function specOf(model: VideoModel): VideoSpec | null {
  const result = parseSpec(JSON.parse(JSON.stringify(model)));
  return result.ok ? result.spec : null;
}

const asData = (spec: VideoSpec | null) => spec as Record<string, unknown> | null;

export async function resolveAssignment(
  job: RenderAssignment,
  channel: RenderJobChannel,
): Promise<ResolvedInput> {
  // A chunk or the stitch step of an authored render renders the spec the job already authored,
  // resolved as a spec sent as data is: it is never authored twice.
  const input: RenderInput = job.authored ? { kind: 'spec', spec: job.authored } : job.input;
  if (input.kind === 'prompt' || input.kind === 'edit') {
    const project = await loadProject(job.renderProject);
    const spec = await authorAssignment(job, project, channel);
    return {
      model: spec,
      project,
      spec: spec as Record<string, unknown>,
      code: specToCode(spec),
      subject: { kind: 'spec', specText: JSON.stringify(spec) },
    };
  }
  if (input.kind === 'spec') {
    const result = checkSpec(input.spec, input.variables);
    if (!result.ok) throw new KinoInputError('invalid spec', { issues: result.issues });
    const project = await loadProject(job.renderProject);
    return {
      model: result.spec,
      project,
      // A template's spec as it renders: bound, without its declarations.
      spec: bindsTemplate(input.spec, input.variables) ? asData(result.spec) : input.spec,
      code: specToCode(result.spec),
      subject: { kind: 'spec', specText: JSON.stringify(input.spec) },
    };
  }
  const resolvedKey = await resolveKey(input.key, job.renderProject, input.variables);
  const { model, project, sourcePath } = resolvedKey;
  const spec = specOf(model);
  // A code composition's own source is its code; a registered JSON spec is printed as code.
  const isComposition = sourcePath !== undefined && compositionEntryKind(sourcePath) !== 'spec';
  const code = isComposition ? await readFile(sourcePath, 'utf8') : spec ? specToCode(spec) : null;
  return {
    model,
    project,
    spec: asData(spec),
    code,
    subject: subjectOf(resolvedKey),
    composition: compositionSource(resolvedKey),
  };
}

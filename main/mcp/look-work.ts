// What the look tools compute, given plain inputs: one frame (render_frame), a review (review_video),
// a type check (validate_code) and a spec printed as code (spec_to_code). Every one of them costs what
// the client sends (a 7680×7680 frame of blurred text, a type-level bomb, a 500-scene spec), so they
// run in a look process (look-process.ts), never on the server's event loop.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { specToCode } from '../../shared/builder/print.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { parseVariables, sampleValues } from '../../shared/spec/variables.ts';
import { checkCompositionTypes } from '../composition/type-check.ts';
import type { TypeDiagnostic } from '../composition/type-check.ts';
import { DrawingSession } from '../engine/drawing-session.ts';
import { posterFrameFor } from '../engine/poster-frame.ts';
import { projectContext } from '../engine/project-context.ts';
import { writePngAtomically } from '../engine/render-frame.ts';
import { scalePngToFit } from '../engine/scaled-png.ts';
import { describeIssues } from '../project/input-error.ts';
import { loadProject } from '../project/load.ts';
import type { RenderProject } from '../project/load.ts';
import { checkSpec, resolveKey } from '../project/resolve-input.ts';
import { findingInterval } from '../review/finding.ts';
import { elementPointer } from '../../shared/timeline/element-keys.ts';
import { reviewComposition } from '../review/review-composition.ts';
import { ToolFailure } from './tool-result.ts';

/** A spec or a registered composition (its key already checked against the registry). */
export interface LookSubject {
  spec?: Record<string, unknown> | undefined;
  key?: string | undefined;
  variables?: Record<string, unknown> | undefined;
  aspect?: AspectName | undefined;
}

export type LookRequest =
  | {
      op: 'frame';
      projectDir: string;
      subject: LookSubject;
      frame?: number | undefined;
      time?: string | undefined;
      /** Where the full-size PNG is kept (stdio); none over HTTP. */
      framesDir?: string | undefined;
      /** The long side of the image in the answer. */
      imageMaxSide: number;
    }
  | { op: 'review'; projectDir: string; subject: LookSubject; samples: number }
  | { op: 'validate'; code: string }
  | { op: 'print'; spec: Record<string, unknown> };

export interface FrameLook {
  op: 'frame';
  label: string;
  frame: number;
  framesTotal: number;
  seconds: number;
  width: number;
  height: number;
  image: { png: Uint8Array; width: number; height: number };
  path?: string | undefined;
}

export interface ReviewFindingLook {
  code: string;
  severity: 'error' | 'warning';
  interval: { startFrame: number; endFrame: number; startSeconds: number; endSeconds: number };
  element?: string;
  pointer?: string;
  message: string;
  remedy: string;
  inspectFrame: number;
}

export interface ReviewLook {
  op: 'review';
  label: string;
  framesReviewed: number;
  framesTotal: number;
  fps: number;
  findings: ReviewFindingLook[];
}

export type LookResult =
  FrameLook | ReviewLook | { op: 'validate'; diagnostics: TypeDiagnostic[] } | { op: 'print'; code: string };

interface Subject {
  model: VideoModel;
  project: RenderProject;
  /** For a spec, findings name the element's JSON pointer in it. */
  isSpec: boolean;
  label: string;
}

async function loadSubject(projectDir: string, args: LookSubject): Promise<Subject> {
  if (args.key !== undefined) {
    const resolved = await resolveKey(args.key, projectDir, args.variables);
    return { model: resolved.model, project: resolved.project, isSpec: false, label: args.key };
  }
  const checked = checkSpec(args.spec, args.variables);
  if (!checked.ok && checked.issues.every((issue) => 'in' in issue && issue.in === 'variables')) {
    throw new ToolFailure(
      `the variables do not fit the template: ${checked.issues.map((issue) => issue.message).join('; ')}`,
    );
  }
  if (!checked.ok) {
    throw new ToolFailure(
      `the spec is invalid (${describeIssues(checked.issues)}); fix it (get_doc "spec" has the guide) and call again`,
    );
  }
  // Frames of different specs must not share a file name: the spec's hash tells them apart.
  const hash = createHash('sha256').update(JSON.stringify(checked.spec)).digest('hex').slice(0, 10);
  return { model: checked.spec, project: await loadProject(projectDir), isSpec: true, label: `spec-${hash}` };
}

const seconds = (frame: number, fps: number) => Number((frame / fps).toFixed(3));

async function frameLook(request: Extract<LookRequest, { op: 'frame' }>): Promise<FrameLook> {
  const subject = await loadSubject(request.projectDir, request.subject);
  const aspect = request.subject.aspect;
  const session = await DrawingSession.open({
    model: subject.model,
    project: await projectContext(subject.project),
    aspect,
  });
  try {
    const { fps, durationFrames, size } = session.video;
    const frame =
      request.time !== undefined ? posterFrameFor(request.time, fps, durationFrames) : (request.frame ?? 0);
    session.assertFrame(frame);
    await session.draw(frame);
    const full = await session.png();
    const image = await scalePngToFit(full, request.imageMaxSide);
    let file: string | undefined;
    if (request.framesDir) {
      const name = `${subject.label.replace(/[^A-Za-z0-9_-]/g, '_')}-${aspect ?? 'default'}-f${frame}.png`;
      file = path.join(request.framesDir, name);
      await writePngAtomically(file, full);
    }
    return {
      op: 'frame',
      label: subject.label,
      frame,
      framesTotal: durationFrames,
      seconds: seconds(frame, fps),
      width: size.width,
      height: size.height,
      image: { png: image.png, width: image.width, height: image.height },
      path: file,
    };
  } finally {
    session.close();
  }
}

async function reviewLook(request: Extract<LookRequest, { op: 'review' }>): Promise<ReviewLook> {
  const subject = await loadSubject(request.projectDir, request.subject);
  const review = await reviewComposition({
    model: subject.model,
    project: await projectContext(subject.project),
    aspect: request.subject.aspect,
    samples: request.samples,
  });
  const { fps, durationFrames } = review.visual.video;
  return {
    op: 'review',
    label: subject.label,
    framesReviewed: review.visual.samples.length,
    framesTotal: durationFrames,
    fps,
    findings: review.drafts.map((draft) => {
      const pointer =
        subject.isSpec && draft.element !== undefined ? elementPointer(draft.element) : undefined;
      return {
        code: draft.code,
        severity: draft.severity,
        interval: findingInterval(draft, fps),
        ...(draft.element === undefined ? {} : { element: draft.element }),
        ...(pointer ? { pointer } : {}),
        message: draft.message,
        remedy: draft.remedy,
        inspectFrame: draft.focusFrame ?? draft.startFrame,
      };
    }),
  };
}

/** A template is checked bound to values that fit it, and printed as the template it is. */
function printLook(spec: Record<string, unknown>): string {
  const declared = parseVariables(spec);
  const values = declared.ok && declared.variables ? sampleValues(declared.variables) : undefined;
  const checked = checkSpec(spec, values);
  if (!checked.ok) throw new ToolFailure(`the spec is invalid (${describeIssues(checked.issues)})`);
  try {
    return specToCode(values ? (spec as VideoSpec) : checked.spec);
  } catch (error) {
    throw new ToolFailure(error instanceof Error ? error.message : String(error));
  }
}

export async function runLookRequest(request: LookRequest): Promise<LookResult> {
  switch (request.op) {
    case 'frame':
      return frameLook(request);
    case 'review':
      return reviewLook(request);
    case 'validate':
      return { op: 'validate', diagnostics: await checkCompositionTypes(request.code) };
    case 'print':
      return { op: 'print', code: printLook(request.spec) };
  }
}

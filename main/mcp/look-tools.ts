// The tools that let an agent see and judge its video before it renders it: render_frame (one frame
// as an image the model can look at) and review_video (sampled frames through the review's checks,
// findings with remedies and the frame to inspect). They draw in this process, one at a time.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { FINDING_CODES } from '../../shared/protocol/finding.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { TIME_PATTERN } from '../../shared/spec/time.ts';
import { elementPointer } from '../review/finding.ts';
import { DrawingSession } from '../engine/drawing-session.ts';
import { posterFrameFor } from '../engine/poster-frame.ts';
import { projectContext } from '../engine/project-context.ts';
import { writePngAtomically } from '../engine/render-frame.ts';
import { scalePngToFit } from '../engine/scaled-png.ts';
import { loadProject } from '../project/load.ts';
import type { RenderProject } from '../project/load.ts';
import { describeIssues } from '../project/input-error.ts';
import { checkSpec, resolveKey } from '../project/resolve-input.ts';
import { TemplateValuesArgument } from './template-tools.ts';
import { findingInterval } from '../review/finding.ts';
import { reviewComposition } from '../review/review-composition.ts';
import type { McpHost } from './host.ts';
import { ToolFailure, runTool, toolSuccess } from './tool-result.ts';

/** A frame or a review taking longer than this is stopped. */
const LOOK_TIMEOUT_MS = 120_000;

/** The call's signal, also aborted after LOOK_TIMEOUT_MS. */
const withTimeout = (signal: AbortSignal) => AbortSignal.any([signal, AbortSignal.timeout(LOOK_TIMEOUT_MS)]);

/** The long side of the image a model gets: what vision models read without scaling it again. */
export const MODEL_IMAGE_MAX_SIDE = 768;
export const MAX_REVIEW_FRAMES = 24;
const DEFAULT_REVIEW_FRAMES = 12;

const subjectShape = {
  spec: z.record(z.string(), z.unknown()).optional().describe('A video spec (JSON). Give spec or key.'),
  key: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('A composition key of the render project. Give spec or key.'),
  aspect: z
    .enum(ASPECT_NAMES as [string, ...string[]])
    .optional()
    .describe("The aspect to draw at; default the spec's own."),
  variables: TemplateValuesArgument.optional(),
};

interface Subject {
  model: VideoModel;
  project: RenderProject;
  /** For a spec, findings name the element's JSON pointer in it. */
  isSpec: boolean;
  label: string;
}

async function loadSubject(
  host: McpHost,
  args: { spec?: Record<string, unknown>; key?: string; variables?: Record<string, unknown> },
): Promise<Subject> {
  if ((args.spec === undefined) === (args.key === undefined)) {
    throw new ToolFailure('give exactly one of spec (a video spec) or key (a composition key)');
  }
  const projectDir = host.service.config.renderProject;
  if (args.key !== undefined) {
    // Checked against the registry first: its message names the known keys, not the project's path.
    const keys = await host.service.keys.keys();
    if (!keys.includes(args.key)) {
      throw new ToolFailure(
        `unknown composition key "${args.key}": ${keys.length > 0 ? `known keys are ${keys.join(', ')}` : 'the render project registers none'}`,
      );
    }
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

const FrameResultSchema = z.object({
  frame: z.number().int().describe('The frame drawn (0-based).'),
  framesTotal: z.number().int(),
  seconds: z.number().describe('Where the frame is, in seconds from the start.'),
  width: z.number().int().describe('The frame size the video renders at.'),
  height: z.number().int(),
  imageWidth: z.number().int().describe('The size of the image in this answer (scaled for a model).'),
  imageHeight: z.number().int(),
  path: z.string().optional().describe('stdio: the full-size PNG on this machine.'),
});

const FindingSchema = z.object({
  code: z.enum(FINDING_CODES),
  severity: z.enum(['error', 'warning']),
  interval: z.object({
    startFrame: z.number().int(),
    endFrame: z.number().int().describe('Exclusive.'),
    startSeconds: z.number(),
    endSeconds: z.number(),
  }),
  element: z.string().optional().describe('The element\'s key ("s0/e2") when it is about one element.'),
  pointer: z.string().optional().describe("For a spec: the element's JSON pointer in it."),
  message: z.string(),
  remedy: z.string().describe('What to change, concretely.'),
  inspectFrame: z.number().int().describe('The frame to look at with render_frame.'),
});

const ReviewResultSchema = z.object({
  framesReviewed: z.number().int(),
  framesTotal: z.number().int(),
  fps: z.number(),
  findings: z.array(FindingSchema),
});

const seconds = (frame: number, fps: number) => Number((frame / fps).toFixed(3));

export function registerLookTools(server: McpServer, host: McpHost): void {
  server.registerTool(
    'render_frame',
    {
      title: 'Look at one frame',
      description: `Draws one frame of a spec or a registered composition and returns it as an image (PNG, at most ${MODEL_IMAGE_MAX_SIDE} px on its long side) so you can see it. Give frame (0-based) or time ("1.5s", "500ms", "45f"); default frame 0. Costs a fraction of a render: look before you render.`,
      inputSchema: z.object({
        ...subjectShape,
        frame: z.number().int().min(0).optional().describe('The frame, 0-based.'),
        time: z.string().regex(TIME_PATTERN).optional().describe('Or a time: "1.5s", "500ms", "45f".'),
      }),
      outputSchema: FrameResultSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, mcp) =>
      runTool(host, () =>
        host.looks.run(async () => {
          if (args.frame !== undefined && args.time !== undefined) {
            throw new ToolFailure('give frame or time, not both');
          }
          const subject = await loadSubject(host, args);
          const session = await DrawingSession.open({
            model: subject.model,
            project: await projectContext(subject.project),
            aspect: args.aspect as AspectName | undefined,
            signal: withTimeout(mcp.mcpReq.signal),
          });
          try {
            const { fps, durationFrames, size } = session.video;
            const frame =
              args.time !== undefined ? posterFrameFor(args.time, fps, durationFrames) : (args.frame ?? 0);
            session.assertFrame(frame);
            await session.draw(frame);
            const full = await session.png();
            const image = await scalePngToFit(full, MODEL_IMAGE_MAX_SIDE);
            let file: string | undefined;
            if (host.framesDir) {
              const name = `${subject.label.replace(/[^A-Za-z0-9_-]/g, '_')}-${args.aspect ?? 'default'}-f${frame}.png`;
              file = path.join(host.framesDir, name);
              await writePngAtomically(file, full);
            }
            const structured = {
              frame,
              framesTotal: durationFrames,
              seconds: seconds(frame, fps),
              width: size.width,
              height: size.height,
              imageWidth: image.width,
              imageHeight: image.height,
              ...(file ? { path: file } : {}),
            };
            const summary =
              `Frame ${frame} of ${durationFrames} (${structured.seconds}s) of ${subject.label}, ${size.width}×${size.height}` +
              (file ? `; full size at ${file}` : '');
            const result = toolSuccess(summary, structured);
            return {
              ...result,
              content: [
                ...result.content,
                { type: 'image' as const, data: image.png.toString('base64'), mimeType: 'image/png' },
              ],
            };
          } finally {
            session.close();
          }
        }, mcp.mcpReq.signal),
      ),
  );

  server.registerTool(
    'review_video',
    {
      title: 'Review a video before rendering it',
      description: `Samples frames (default ${DEFAULT_REVIEW_FRAMES}, at most ${MAX_REVIEW_FRAMES}) of a spec or a registered composition and checks them as a careful editor would: text that overflows, is too small, too brief or low in contrast, elements off screen or outside the safe area, blank or frozen frames, missing media and fonts, silent or clipping audio. Each finding has the interval, a remedy and the frame to inspect with render_frame; for a spec, the element's JSON pointer. No findings means the checks passed.`,
      inputSchema: z.object({
        ...subjectShape,
        frames: z
          .number()
          .int()
          .min(1)
          .max(MAX_REVIEW_FRAMES)
          .optional()
          .describe('How many frames to sample.'),
      }),
      outputSchema: ReviewResultSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, mcp) =>
      runTool(host, () =>
        host.looks.run(async () => {
          const subject = await loadSubject(host, args);
          const review = await reviewComposition({
            model: subject.model,
            project: await projectContext(subject.project),
            aspect: args.aspect as AspectName | undefined,
            samples: args.frames ?? DEFAULT_REVIEW_FRAMES,
            signal: withTimeout(mcp.mcpReq.signal),
          });
          const { fps, durationFrames } = review.visual.video;
          const findings = review.drafts.map((draft) => {
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
          });
          const structured = {
            framesReviewed: review.visual.samples.length,
            framesTotal: durationFrames,
            fps,
            findings,
          };
          const lines = findings.map(
            (f) =>
              `- ${f.severity} ${f.code} at ${f.interval.startSeconds}–${f.interval.endSeconds}s${f.pointer ? ` (${f.pointer})` : f.element ? ` (${f.element})` : ''}: ${f.message} Fix: ${f.remedy} (inspect frame ${f.inspectFrame})`,
          );
          const summary =
            findings.length === 0
              ? `Reviewed ${structured.framesReviewed} frames of ${subject.label}: no findings.`
              : `Reviewed ${structured.framesReviewed} frames of ${subject.label}: ${findings.length} finding${findings.length === 1 ? '' : 's'}.\n${lines.join('\n')}`;
          return toolSuccess(summary, structured);
        }, mcp.mcpReq.signal),
      ),
  );
}

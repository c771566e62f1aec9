// The tools that let an agent see and judge its video before it renders it: render_frame (one frame
// as an image the model can look at) and review_video (sampled frames through the review's checks,
// findings with remedies and the frame to inspect). Each draws in a look process
// (look-runner.ts), one at a time, killed when it runs past its time.
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { FINDING_CODES } from '../../shared/protocol/finding.ts';
import { DEFAULT_REVIEW_FRAMES, MAX_REVIEW_FRAMES } from '../../shared/protocol/review-frames.ts';
import { ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { TIME_PATTERN } from '../../shared/spec/time.ts';
import { TemplateValuesArgument } from './template-tools.ts';
import type { McpHost } from './host.ts';
import { LOOK_TIMEOUT_MS, runLook } from './look-runner.ts';
import type { LookSubject } from './look-work.ts';
import { ToolFailure, runTool, toolSuccess } from './tool-result.ts';

/** The long side of the image a model gets: what vision models read without scaling it again. */
export const MODEL_IMAGE_MAX_SIDE = 768;

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

/** The subject of a look, checked here as far as it is cheap: one of spec or key, and a known key. */
async function lookSubject(
  host: McpHost,
  args: {
    spec?: Record<string, unknown>;
    key?: string;
    variables?: Record<string, unknown>;
    aspect?: string;
  },
): Promise<LookSubject> {
  if ((args.spec === undefined) === (args.key === undefined)) {
    throw new ToolFailure('give exactly one of spec (a video spec) or key (a composition key)');
  }
  if (args.key !== undefined) {
    // Checked against the registry first: its message names the known keys, not the project's path.
    const keys = await host.service.keys.keys();
    if (!keys.includes(args.key)) {
      throw new ToolFailure(
        `unknown composition key "${args.key}": ${keys.length > 0 ? `known keys are ${keys.join(', ')}` : 'the render project registers none'}`,
      );
    }
  }
  return {
    spec: args.spec,
    key: args.key,
    variables: args.variables,
    aspect: args.aspect as AspectName | undefined,
  };
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
          const look = await runLook(
            {
              op: 'frame',
              projectDir: host.service.config.renderProject,
              subject: await lookSubject(host, args),
              frame: args.frame,
              time: args.time,
              framesDir: host.framesDir,
              imageMaxSide: MODEL_IMAGE_MAX_SIDE,
            },
            { signal: mcp.mcpReq.signal, timeoutMs: LOOK_TIMEOUT_MS, log: host.log },
          );
          const structured = {
            frame: look.frame,
            framesTotal: look.framesTotal,
            seconds: look.seconds,
            width: look.width,
            height: look.height,
            imageWidth: look.image.width,
            imageHeight: look.image.height,
            ...(look.path ? { path: look.path } : {}),
          };
          const summary =
            `Frame ${look.frame} of ${look.framesTotal} (${look.seconds}s) of ${look.label}, ${look.width}×${look.height}` +
            (look.path ? `; full size at ${look.path}` : '');
          const result = toolSuccess(summary, structured);
          return {
            ...result,
            content: [
              ...result.content,
              {
                type: 'image' as const,
                data: Buffer.from(look.image.png).toString('base64'),
                mimeType: 'image/png',
              },
            ],
          };
        }, mcp.mcpReq.signal),
      ),
  );

  server.registerTool(
    'review_video',
    {
      title: 'Review a video before rendering it',
      description: `Samples frames (default ${DEFAULT_REVIEW_FRAMES}, at most ${MAX_REVIEW_FRAMES}) of a spec or a registered composition and checks them as a careful editor would: text that overflows, is too small, too brief or low in contrast, text drawn over other text, elements off screen or outside the safe area, blank or frozen frames, missing media and fonts, silent or clipping audio. Each finding has the interval, a remedy and the frame to inspect with render_frame; for a spec, the element's JSON pointer. No findings means the checks passed.`,
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
          const look = await runLook(
            {
              op: 'review',
              projectDir: host.service.config.renderProject,
              subject: await lookSubject(host, args),
              samples: args.frames ?? DEFAULT_REVIEW_FRAMES,
            },
            { signal: mcp.mcpReq.signal, timeoutMs: LOOK_TIMEOUT_MS, log: host.log },
          );
          const { findings } = look;
          const structured = {
            framesReviewed: look.framesReviewed,
            framesTotal: look.framesTotal,
            fps: look.fps,
            findings,
          };
          const lines = findings.map(
            (f) =>
              `- ${f.severity} ${f.code} at ${f.interval.startSeconds}–${f.interval.endSeconds}s${f.pointer ? ` (${f.pointer})` : f.element ? ` (${f.element})` : ''}: ${f.message} Fix: ${f.remedy} (inspect frame ${f.inspectFrame})`,
          );
          const summary =
            findings.length === 0
              ? `Reviewed ${structured.framesReviewed} frames of ${look.label}: no findings.`
              : `Reviewed ${structured.framesReviewed} frames of ${look.label}: ${findings.length} finding${findings.length === 1 ? '' : 's'}.\n${lines.join('\n')}`;
          return toolSuccess(summary, structured);
        }, mcp.mcpReq.signal),
      ),
  );
}

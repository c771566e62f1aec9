// What POST /v1/renders learns from a spec before it queues it: whether it is valid (bound to its
// variables), what it costs at each output's aspect, whether each poster time lies inside, and the
// builder code shown beside the job. Pure and synchronous: spec-examiner.ts decides on which thread
// it runs, since a legal 500 KB spec costs ≈ 0.6 s of it.
import { specToCode } from '../../shared/builder/print.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { bindsTemplate } from '../../shared/spec/variables.ts';
import { PosterOutOfRange, posterFrameFor } from '../engine/poster-frame.ts';
import { checkSpec } from '../project/resolve-input.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';

export interface OutputAsked {
  aspect?: string | undefined;
  poster?: string | undefined;
}

/** A resolved output, as much of it as the checks after need (cost, poster). */
export interface OutputSize {
  fps: number;
  durationFrames: number;
  size: { width: number; height: number };
}

export type SpecExamination =
  | { ok: false; issues: Extract<ReturnType<typeof checkSpec>, { ok: false }>['issues'] }
  | {
      ok: true;
      /** The spec bound to its variables, when it is a template. */
      bound: VideoSpec | undefined;
      code: string;
      outputs: OutputSize[];
      /** Per output asked: the poster's problem, if its time lies outside the video. */
      posterProblems: ({ code: string; message: string } | undefined)[];
    };

export function examineSpec(
  spec: unknown,
  variables: VariableValues | undefined,
  asked: readonly OutputAsked[],
): SpecExamination {
  const checked = checkSpec(spec, variables);
  if (!checked.ok) return { ok: false, issues: checked.issues };
  const outputs = asked.map((request) => {
    const video = resolveTimeline(
      checked.spec,
      request.aspect ? { aspect: request.aspect as AspectName } : {},
    );
    return { fps: video.fps, durationFrames: video.durationFrames, size: { ...video.size } };
  });
  const posterProblems = asked.map((request, index) => {
    if (!request.poster) return undefined;
    try {
      posterFrameFor(request.poster, outputs[index]!.fps, outputs[index]!.durationFrames);
      return undefined;
    } catch (error) {
      if (!(error instanceof PosterOutOfRange)) throw error;
      return { code: error.code, message: error.message };
    }
  });
  return {
    ok: true,
    bound: bindsTemplate(spec, variables) ? checked.spec : undefined,
    code: specToCode(checked.spec),
    outputs,
    posterProblems,
  };
}

// What POST /v1/renders learns from a spec before it queues it: whether it is valid (bound to its
// variables), what it costs at each output's aspect, whether each poster time lies inside, and the
// builder code shown beside the job. Pure and synchronous: spec-examiner.ts decides on which thread
// it runs, since a legal 500 KB spec costs ≈ 0.6 s of it.
import { specToCode } from '../../shared/builder/print.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { bindsTemplate } from '../../shared/spec/variables.ts';
import { posterRefusal } from '../engine/request-checks.ts';
import type { OutputSize, RequestRefusal } from '../engine/request-checks.ts';
import { checkSpec } from '../project/resolve-input.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';

export interface OutputAsked {
  aspect?: string | undefined;
  poster?: string | undefined;
  /** Where the poster sits in the request, for its refusal. */
  posterPointer: string;
}

export type SpecExamination =
  | { ok: false; issues: Extract<ReturnType<typeof checkSpec>, { ok: false }>['issues'] }
  | {
      ok: true;
      /** The spec bound to its variables, when it is a template. */
      bound: VideoSpec | undefined;
      code: string;
      outputs: OutputSize[];
      /** Per output asked: the poster's refusal, if its time lies outside the video. */
      posters: (RequestRefusal | undefined)[];
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
  const posters = asked.map((request, index) => {
    const output = outputs[index]!;
    return request.poster
      ? posterRefusal(request.poster, output.fps, output.durationFrames, request.posterPointer)
      : undefined;
  });
  return {
    ok: true,
    bound: bindsTemplate(spec, variables) ? checked.spec : undefined,
    code: specToCode(checked.spec),
    outputs,
    posters,
  };
}

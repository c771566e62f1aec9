// nondeterministic: the same frame drawn twice must give the same pixels, or renders, previews and
// cached frames disagree. The sampled frames are drawn again in a freshly mounted composition (new
// model, new session) and their pixel hashes compared with the first drawing's.
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName, FrameSize } from '../../shared/spec/sizes.ts';
import { cancellationPoint } from '../engine/cancellation-point.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import type { FindingDraft } from './finding.ts';
import { ReviewSession } from './review-session.ts';
import { sha256 } from './review-session.ts';
import { describeElement } from './visual/check.ts';
import type { FrameDeterminism } from '../../shared/protocol/workspace.ts';

export interface DeterminismInput {
  /** The frames drawn the first time, with the sha256 of their straight RGBA pixels. */
  frames: readonly { frame: number; sha256: string }[];
  /** Mounts the composition afresh (loads it again) and gives its model. */
  mount: () => Promise<VideoModel>;
  project: RenderProjectContext;
  aspect?: AspectName | FrameSize | undefined;
  lenient?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

export interface DeterminismResult {
  frames: FrameDeterminism[];
  drafts: FindingDraft[];
}

/** Custom elements draw arbitrary code: the usual source of randomness or clock reads. */
function suspects(drawn: Map<string, string>): string {
  if (drawn.size === 0) return '';
  return `; custom drawing on those frames: ${[...drawn.values()].join(', ')}`;
}

export async function checkDeterminism(input: DeterminismInput): Promise<DeterminismResult> {
  const model = await input.mount();
  const session = await ReviewSession.open({
    model,
    project: input.project,
    aspect: input.aspect,
    lenient: input.lenient,
    signal: input.signal,
  });
  const frames: FrameDeterminism[] = [];
  const custom = new Map<string, string>();
  try {
    for (const { frame, sha256: firstSha256 } of input.frames) {
      await cancellationPoint(input.signal);
      const drawn = (await session.drawObserved(frame)).elements;
      const secondSha256 = sha256(session.rgba());
      const match = secondSha256 === firstSha256;
      frames.push({ frame, firstSha256, secondSha256, match });
      if (match) continue;
      for (const element of drawn) {
        if (element.element.type === 'custom')
          custom.set(element.key, describeElement(element.key, element.element));
      }
    }
  } finally {
    session.close();
  }
  const differing = frames.filter((entry) => !entry.match);
  if (differing.length === 0) return { frames, drafts: [] };
  const first = differing[0]!;
  const last = differing.at(-1)!;
  const listed = differing.slice(0, 8).map((entry) => entry.frame);
  const more = differing.length > listed.length ? ', …' : '';
  const only = custom.size === 1 ? [...custom.keys()][0] : undefined;
  return {
    frames,
    drafts: [
      {
        code: 'nondeterministic',
        severity: 'error',
        startFrame: first.frame,
        endFrame: last.frame + 1,
        focusFrame: first.frame,
        element: only,
        message:
          `${differing.length} of ${frames.length} sampled frames come out different when drawn again in a fresh ` +
          `mount (frames ${listed.join(', ')}${more})${suspects(custom)}`,
        remedy:
          'make drawing depend only on the frame: replace Math.random(), Date.now() and state kept between ' +
          'draws in custom draw functions with values computed from info.frame or info.time (for randomness, a ' +
          'seeded generator seeded per frame or per element)',
      },
    ],
  };
}

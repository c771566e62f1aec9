// Checks a schema-valid spec for what the schema alone cannot see: ids, triggers and timing that do not
// add up. Reported with JSON pointers, alongside the schema's own errors.
import { formatTime, timeToSeconds } from '../spec/time.ts';
import type { Time } from '../spec/time.ts';
import type { ModelElement, VideoModel } from '../spec/model.ts';
import { DEFAULT_FPS } from '../spec/schema.ts';
import type { SpecIssue } from '../spec/validate.ts';
import { DEFAULT_TRANSITION_SECONDS, sceneId, transitionOverlapSeconds } from './resolve.ts';

interface PlacedElement {
  element: ModelElement;
  pointer: string;
}

/** How messages name one element list: a scene's, or the overlays. */
interface ListWords {
  /** What its top-level elements last as long as: "its scene", "the video". */
  container: string;
  /** Where its ids live: 'in scene "intro"', "among the overlays"; and the same from inside it. */
  among: string;
  here: string;
  /** Where an id it names must be: "in the same scene", "among the overlays". */
  same: string;
}

/** Every element of a list, depth first, with its pointer and how long its container lasts. */
function collect(
  elements: readonly ModelElement[],
  pointer: string,
  available: number,
  words: ListWords | undefined,
  seconds: (time: Time) => number,
  issues: SpecIssue[],
  out: PlacedElement[],
): void {
  elements.forEach((element, i) => {
    const at = `${pointer}/${i}`;
    out.push({ element, pointer: at });
    const start = seconds(element.start ?? 0);
    if (start > 0 && start >= available) {
      const container = words?.container ?? 'its group';
      issues.push({
        pointer: `${at}/start`,
        message: `starts at ${formatTime(start)}, when ${container} has already ended (${formatTime(available)}), so it never shows; start it earlier`,
      });
    }
    for (const [property, track] of Object.entries(element.keyframes ?? {})) {
      track?.forEach((keyframe, k) => {
        const previous = track[k - 1];
        if (previous && seconds(keyframe.at) < seconds(previous.at)) {
          issues.push({
            pointer: `${at}/keyframes/${property}/${k}/at`,
            message: `keyframe at ${formatTime(seconds(keyframe.at))} comes before the previous one (${formatTime(seconds(previous.at))}); list keyframes in time order`,
          });
        }
      });
    }
    if (element.type === 'group') {
      const lifetime = Math.max(
        0,
        Math.min(available - start, element.duration === undefined ? Infinity : seconds(element.duration)),
      );
      collect(element.children, `${at}/children`, lifetime, undefined, seconds, issues, out);
    }
  });
}

function afterTriggers(element: ModelElement): { id: string; index: number }[] {
  return (element.animate ?? []).flatMap((animation, index) => {
    const trigger = animation.trigger;
    return typeof trigger === 'object' && 'after' in trigger ? [{ id: trigger.after, index }] : [];
  });
}

/** The id an annotation points at (a callout's or a spotlight's target), when it names one. */
function targetId(element: ModelElement): string | undefined {
  if (element.type !== 'callout' && element.type !== 'spotlight') return undefined;
  return typeof element.target === 'string' ? element.target : undefined;
}

/** Reports each {after} chain that leads back to where it started, at the trigger that closes it. */
function cycleIssues(placed: PlacedElement[], byId: Map<string, PlacedElement>): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const state = new Map<PlacedElement, 'visiting' | 'done'>();
  const path: PlacedElement[] = [];
  const label = (p: PlacedElement) => p.element.id ?? p.pointer;
  const visit = (node: PlacedElement) => {
    state.set(node, 'visiting');
    path.push(node);
    for (const { id, index } of afterTriggers(node.element)) {
      const next = byId.get(id);
      if (!next) continue;
      if (state.get(next) === 'visiting') {
        const cycle = [...path.slice(path.indexOf(next)), next].map(label).join(' → ');
        issues.push({
          pointer: `${node.pointer}/animate/${index}/trigger`,
          message: `animations wait for each other in a cycle (${cycle}); start one of them on a time or another trigger`,
        });
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of placed) if (!state.has(node)) visit(node);
  return issues;
}

/** Ids, triggers and targets within one element list, which is also where they must be found. */
function elementListIssues(
  elements: readonly ModelElement[],
  pointer: string,
  duration: number,
  words: ListWords,
  seconds: (time: Time) => number,
): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const placed: PlacedElement[] = [];
  collect(elements, pointer, duration, words, seconds, issues, placed);

  const byId = new Map<string, PlacedElement>();
  for (const entry of placed) {
    const id = entry.element.id;
    if (id === undefined) continue;
    const first = byId.get(id);
    if (first) {
      issues.push({
        pointer: `${entry.pointer}/id`,
        message: `the id "${id}" is already used ${words.here} (at ${first.pointer}); give each element its own id`,
      });
    } else byId.set(id, entry);
  }

  for (const entry of placed) {
    for (const { id, index } of afterTriggers(entry.element)) {
      if (byId.has(id)) continue;
      issues.push({
        pointer: `${entry.pointer}/animate/${index}/trigger`,
        message: `{after: "${id}"} names no element ${words.among}; use the id of an element ${words.same}`,
      });
    }
  }
  for (const entry of placed) {
    const target = targetId(entry.element);
    if (target === undefined || (byId.has(target) && target !== entry.element.id)) continue;
    issues.push({
      pointer: `${entry.pointer}/target`,
      message:
        target === entry.element.id
          ? `the ${entry.element.type} targets itself; give the id of the element it should point at`
          : `target "${target}" names no element ${words.among}; use the id of an element ${words.same}`,
    });
  }
  issues.push(...cycleIssues(placed, byId));
  return issues;
}

/** How long the video lasts: its scenes, less the transitions' overlaps (what the timeline resolves). */
function videoSeconds(spec: VideoModel, fps: number): number {
  let total = 0;
  let previous: number | undefined;
  for (const scene of spec.scenes) {
    const duration = timeToSeconds(scene.duration, fps);
    const overlap =
      previous === undefined ? 0 : transitionOverlapSeconds(previous, duration, scene.transition, fps);
    total += duration - overlap;
    previous = duration;
  }
  return total;
}

/** The longest video Kino renders: a longer one is a typo (or an attempt to hold a render slot for days). */
export const MAX_VIDEO_SECONDS = 3600;

export function semanticIssues(spec: VideoModel): SpecIssue[] {
  const fps = spec.fps ?? DEFAULT_FPS;
  const seconds = (time: Time) => timeToSeconds(time, fps);
  const issues: SpecIssue[] = [];

  let total = 0;
  for (const [sceneIndex, scene] of spec.scenes.entries()) {
    total += seconds(scene.duration);
    if (total > MAX_VIDEO_SECONDS) {
      issues.push({
        pointer: `/scenes/${sceneIndex}/duration`,
        message: `the video would last longer than ${MAX_VIDEO_SECONDS / 60} minutes by this scene, the longest Kino renders; shorten the scenes`,
      });
      return issues;
    }
  }

  spec.scenes.forEach((scene, sceneIndex) => {
    const pointer = `/scenes/${sceneIndex}`;
    const duration = seconds(scene.duration);
    const previous = spec.scenes[sceneIndex - 1];
    const transition = scene.transition;
    if (previous && transition && transition.type !== 'cut') {
      const wanted =
        transition.duration === undefined ? DEFAULT_TRANSITION_SECONDS : seconds(transition.duration);
      const previousDuration = seconds(previous.duration);
      // A transition takes at most half of each scene it joins; longer would be cut silently.
      const most = Math.min(previousDuration, duration) / 2;
      if (wanted > most + 1e-9) {
        const shorter = Math.min(duration, previousDuration);
        issues.push({
          pointer: `${pointer}/transition${transition.duration === undefined ? '' : '/duration'}`,
          message: `the ${formatTime(wanted)} transition is longer than half of a scene it joins (${formatTime(shorter)}): it may take at most ${formatTime(most)}, so shorten it or lengthen the scene`,
        });
      }
    }

    const words = {
      container: 'its scene',
      among: `in scene "${sceneId(scene, sceneIndex)}"`,
      here: 'in this scene',
      same: 'in the same scene',
    };
    issues.push(...elementListIssues(scene.elements ?? [], `${pointer}/elements`, duration, words, seconds));
  });
  if (spec.overlays) {
    const among = 'among the overlays';
    const words = { container: 'the video', among, here: among, same: among };
    issues.push(...elementListIssues(spec.overlays, '/overlays', videoSeconds(spec, fps), words, seconds));
  }
  return issues;
}

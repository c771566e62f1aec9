// How inspect names annotation and titling elements: what each points at or says, in a few words.
import type { Point } from '../../shared/spec/annotation-elements.ts';
import type {
  ArrowElement,
  CalloutElement,
  SpotlightElement,
} from '../../shared/spec/annotation-elements.ts';
import type {
  LowerThirdElement,
  ProgressBarElement,
  TitleCardElement,
} from '../../shared/spec/title-elements.ts';

export type AnnotationElement =
  | ArrowElement
  | CalloutElement
  | SpotlightElement
  | LowerThirdElement
  | TitleCardElement
  | ProgressBarElement;

function pointLabel(point: Point): string {
  return `(${point.x}, ${point.y})`;
}

/** "→ #chart" for an element target, "→ (0.3, 0.7)" for a point. */
export function targetLabel(target: Point | string): string {
  return typeof target === 'string' ? `→ #${target}` : `→ ${pointLabel(target)}`;
}

export function annotationLabel(element: AnnotationElement, excerpt: (text: string) => string): string {
  switch (element.type) {
    case 'arrow':
      return `arrow ${pointLabel(element.from)} → ${pointLabel(element.to)}`;
    case 'callout':
      return `${excerpt(element.text)} ${targetLabel(element.target)}`;
    case 'spotlight':
      return element.target === undefined
        ? `${element.shape ?? 'circle'} spotlight`
        : `spotlight ${targetLabel(element.target)}`;
    case 'lowerThird':
      return excerpt(element.title ? `${element.name} — ${element.title}` : element.name);
    case 'titleCard':
      return excerpt(element.title);
    case 'progressBar':
      return element.value === undefined
        ? `progress of the ${element.of ?? 'video'}`
        : `progress ${Math.round(element.value * 100)}%`;
  }
}

/** The parts inspect lists: a target, the ends of an arrow, the lines of a title. */
export function annotationParts(
  element: AnnotationElement,
  excerpt: (text: string) => string,
): string[] | undefined {
  switch (element.type) {
    case 'arrow':
      return [`from ${pointLabel(element.from)}`, `to ${pointLabel(element.to)}`];
    case 'callout':
      return [targetLabel(element.target)];
    case 'spotlight':
      return element.target === undefined ? undefined : [targetLabel(element.target)];
    case 'lowerThird':
      return [element.name, ...(element.title ? [element.title] : [])].map(excerpt);
    case 'titleCard':
      return [element.kicker, element.title, element.subtitle].flatMap((line) =>
        line ? [excerpt(line)] : [],
      );
    case 'progressBar':
      return undefined;
  }
}

// Shows what keeps the composition from playing: compile problems at file:line:column, or the error
// it threw. Built from text nodes only: messages can quote the author's source.
import type { CompileProblem } from '../../shared/protocol/problem.ts';

export function placeOf(problem: CompileProblem): string {
  return problem.line === undefined ? problem.file : `${problem.file}:${problem.line}:${problem.column ?? 1}`;
}

export class ErrorOverlay {
  readonly #element: HTMLElement;

  constructor(element: HTMLElement) {
    this.#element = element;
  }

  showProblems(title: string, problems: readonly CompileProblem[]): void {
    this.#render(
      title,
      problems.map((problem) => [placeOf(problem), problem.message]),
    );
  }

  /** `text` is a thrown error's description (see describeThrown). */
  showError(title: string, text: string): void {
    this.#render(title, [[undefined, text]]);
  }

  hide(): void {
    this.#element.hidden = true;
    this.#element.replaceChildren();
  }

  #render(title: string, entries: [place: string | undefined, message: string][]): void {
    const heading = document.createElement('h2');
    heading.textContent = title;
    const blocks = entries.map(([place, message]) => {
      const block = document.createElement('div');
      if (place) {
        const where = document.createElement('span');
        where.className = 'place';
        where.textContent = place;
        block.append(where, ': ');
      }
      block.append(message);
      return block;
    });
    this.#element.replaceChildren(heading, ...blocks);
    this.#element.hidden = false;
  }
}

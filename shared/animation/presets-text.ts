// Presets that reveal a text's words or characters in turn.
import type { PresetFamily } from './preset-definition.ts';

export const DEFAULT_WORD_STAGGER_SECONDS = 0.08;
/** typewriter: characters a second (a brisk typist), and words a second when typing by word. */
export const DEFAULT_TYPING_RATE = { character: 18, word: 4 } as const;
/** A text cursor blinks on and off every 530 ms, as most systems' do. */
export const CURSOR_BLINK_SECONDS = 0.53;

export const TEXT_PRESETS = {
  wordByWord: {
    kind: 'entrance',
    durationSeconds: 0.45,
    easing: 'out',
    summary: 'each word rises and fades in, `stagger` (0.08 s) after the one before',
    apply: (state, m) => {
      const previous = state.wordProgress;
      state.wordProgress = previous ? (i) => Math.min(previous(i), m.wordProgress(i)) : m.wordProgress;
    },
  },
  typewriter: {
    kind: 'entrance',
    // Set by the timeline from the text's length and the rate, unless the animation gives one.
    durationSeconds: 1,
    easing: 'linear',
    summary:
      'types the text in a character (or a word, `by`) at a time at `rate` (18 a second), with an optional `cursor`',
    apply: (state, m) => {
      const cursor = m.animation.cursor;
      state.typing = {
        fraction: Math.min(1, Math.max(0, m.eased)),
        by: m.animation.by ?? 'character',
        cursor: cursor
          ? { color: typeof cursor === 'object' ? cursor.color : undefined, visible: m.cursorVisible }
          : undefined,
      };
    },
  },
} satisfies PresetFamily;

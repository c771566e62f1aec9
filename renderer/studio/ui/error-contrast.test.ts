// The error panel over the preview must be readable whatever frame is under it: its background is
// opaque, and every text colour on it has at least WCAG AA's 4.5:1 contrast against that background.
import { describe, expect, it } from 'vitest';
import { contrastRatio, parseColor } from '../../../shared/spec/color.ts';
import type { Rgba } from '../../../shared/spec/color.ts';
import { ERROR_PANEL_COLORS } from './error-colors.ts';

function color(css: string): Rgba {
  const parsed = parseColor(css);
  if (!parsed) throw new Error(`not a colour: ${css}`);
  return parsed;
}

const background = color(ERROR_PANEL_COLORS['--err-panel-bg']);

describe('the error panel over the preview', () => {
  it('has an opaque background', () => {
    expect(background.a).toBe(1);
  });

  for (const name of [
    '--err-panel-title',
    '--err-panel-text',
    '--err-panel-muted',
    '--err-panel-link',
  ] as const) {
    it(`${name} reads at 4.5:1 or more on it`, () => {
      const text = color(ERROR_PANEL_COLORS[name]);
      expect(text.a).toBe(1);
      expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(4.5);
    });
  }

  it('fails the panel it replaces: light pink text on 14% pink over a white frame', () => {
    const over = (c: number, under: number) => c * 0.14 + under * 0.86;
    const panel = { r: over(255, 255), g: over(92, 255), b: over(108, 255), a: 1 };
    expect(contrastRatio(color('#ffd0d5'), panel)).toBeLessThan(4.5);
  });
});

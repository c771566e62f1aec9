import { describe, expect, it } from 'vitest';
import { backgroundIsOpaque } from './background.ts';

describe('backgroundIsOpaque', () => {
  it('is true only when every pixel the background paints is opaque', () => {
    expect(backgroundIsOpaque('#101820')).toBe(true);
    expect(backgroundIsOpaque('rgba(16, 24, 32, 0.5)')).toBe(false);
    expect(backgroundIsOpaque('transparent')).toBe(false);
    expect(backgroundIsOpaque({ type: 'color', color: 'navy' })).toBe(true);
    expect(backgroundIsOpaque({ type: 'linear', colors: ['#000', '#fff'] })).toBe(true);
    expect(backgroundIsOpaque({ type: 'radial', colors: ['#000', '#ffffff80'] })).toBe(false);
    expect(backgroundIsOpaque({ type: 'image', src: 'photo.jpg' })).toBe(false);
  });
});

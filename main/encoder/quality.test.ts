import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QUALITIES } from '../../shared/output/formats.ts';
import { qualitySettings, X264_PRESETS } from './quality.ts';
import type { GifSettings, Vp9Settings, X264Settings } from './quality.ts';

const x264 = (q: (typeof QUALITIES)[number]) => qualitySettings('mp4', q).video as X264Settings;
const vp9 = (q: (typeof QUALITIES)[number]) => qualitySettings('transparent', q).video as Vp9Settings;
const gif = (q: (typeof QUALITIES)[number]) => qualitySettings('gif', q).video as GifSettings;

describe('quality levels', () => {
  it('draws drafts at half size and the others at full size, in every format', () => {
    for (const format of ['mp4', 'gif', 'transparent', 'mov'] as const) {
      expect(QUALITIES.map((q) => qualitySettings(format, q).scale)).toEqual([0.5, 1, 1]);
    }
  });

  it('gets better and slower from draft to high', () => {
    const [draft, standard, high] = QUALITIES.map(x264);
    expect(draft!.crf).toBeGreaterThan(standard!.crf);
    expect(standard!.crf).toBeGreaterThan(high!.crf);
    expect(X264_PRESETS.indexOf(high!.preset)).toBeGreaterThan(X264_PRESETS.indexOf(standard!.preset));
    expect(X264_PRESETS.indexOf(draft!.preset)).toBeLessThanOrEqual(X264_PRESETS.indexOf(standard!.preset));
    const [vDraft, vStandard, vHigh] = QUALITIES.map(vp9);
    expect(vDraft!.crf).toBeGreaterThan(vStandard!.crf);
    expect(vStandard!.crf).toBeGreaterThan(vHigh!.crf);
    expect(vDraft!.cpuUsed).toBeGreaterThan(vHigh!.cpuUsed);
    expect(QUALITIES.map((q) => gif(q).maxWidth)).toEqual([480, 720, 1080]);
  });

  it('uses the standard H.264 setting that docs/quality.md reports as measured', () => {
    const doc = readFileSync(new URL('../../docs/quality.md', import.meta.url), 'utf8');
    const match = /Chosen standard: preset `(\w+)`, CRF (\d+)/.exec(doc);
    expect(match, 'docs/quality.md must state the chosen standard setting').not.toBeNull();
    expect({ preset: x264('standard').preset, crf: x264('standard').crf }).toEqual({
      preset: match![1],
      crf: Number(match![2]),
    });
  });
});

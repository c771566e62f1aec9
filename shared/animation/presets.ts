// Every animation preset by name, gathered from its family: moves, transforms, looks and text.
import type { AnimationPreset } from '../spec/primitives.ts';
import type { PresetDefinition, PresetKind } from './preset-definition.ts';
import { LOOK_PRESETS } from './presets-look.ts';
import { MOVE_PRESETS } from './presets-move.ts';
import { TEXT_PRESETS } from './presets-text.ts';
import { TRANSFORM_PRESETS } from './presets-transform.ts';

export type { PresetContext, PresetDefinition, PresetKind, PresetMoment } from './preset-definition.ts';
export { CURSOR_BLINK_SECONDS, DEFAULT_TYPING_RATE, DEFAULT_WORD_STAGGER_SECONDS } from './presets-text.ts';

export const PRESETS: Record<AnimationPreset, PresetDefinition> = {
  ...LOOK_PRESETS,
  ...MOVE_PRESETS,
  ...TRANSFORM_PRESETS,
  ...TEXT_PRESETS,
};

export function presetKind(preset: AnimationPreset): PresetKind {
  return PRESETS[preset].kind;
}

// Kino's composition API: what `import { ... } from 'kino'` gives a composition file.
export {
  blurIn,
  blurOut,
  bounceIn,
  cubicBezier,
  drift,
  dropIn,
  elasticIn,
  fadeIn,
  fadeOut,
  flipIn,
  flipOut,
  float,
  glow,
  kenBurns,
  keyframes,
  maskRevealIn,
  maskRevealOut,
  maskWipeIn,
  maskWipeOut,
  pop,
  pulse,
  rock,
  rotateIn,
  rotateOut,
  scaleIn,
  scaleOut,
  shake,
  slideFadeIn,
  slideFadeOut,
  slideIn,
  slideOut,
  spin,
  spring,
  typewriter,
  wordByWord,
  animationHelpers,
} from './animations.ts';
export type { AnimationHelper, AnimationProps, KeyframeTuple } from './animations.ts';
export { music, sfx } from './audio.ts';
export type { AudioProps } from './audio.ts';
export { KinoElement } from './element.ts';
export type { ElementInput, ElementProps } from './element.ts';
export {
  arrow,
  callout,
  lowerThird,
  progressBar,
  spotlight,
  titleCard,
  captions,
  chart,
  clip,
  code,
  markdown,
  counter,
  custom,
  elementBuilders,
  ellipse,
  group,
  image,
  line,
  path,
  rect,
  terminal,
  text,
} from './elements.ts';
export type {
  ArrowProps,
  CalloutProps,
  LowerThirdProps,
  ProgressBarProps,
  SpotlightProps,
  TitleCardProps,
  CaptionsProps,
  ChartProps,
  ClipProps,
  CodeProps,
  MarkdownProps,
  CounterProps,
  CustomDraw,
  CustomDrawInfo,
  CustomProps,
  EllipseProps,
  GroupProps,
  ImageProps,
  LineProps,
  PathProps,
  RectProps,
  TerminalProps,
  TextProps,
} from './elements.ts';
export { frames, ms, seconds } from './time.ts';
export { clockWipe, crossFade, cut, flip, slide, transitionHelpers, wipe, zoom } from './transitions.ts';
export type { TransitionHelper, TransitionProps } from './transitions.ts';
export { scene, video } from './video.ts';
export { template } from './template.ts';
export type { KinoTemplate, TemplateValues } from './template.ts';
export type { SceneProps, VideoExtras, VideoProps } from './video.ts';

export type { ModelElement, ModelScene, VideoModel } from '../spec/model.ts';
export type { VideoSpec, Scene, Transition } from '../spec/schema.ts';
export type {
  Animation,
  Easing,
  Gradient,
  Keyframe,
  Keyframes,
  Length,
  Paint,
  Position,
} from '../spec/primitives.ts';
export type { AudioTrack } from '../spec/audio.ts';
export type { Background } from '../spec/background.ts';
export type { Time } from '../spec/time.ts';

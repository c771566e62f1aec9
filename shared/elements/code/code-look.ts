// A code element's look in real pixels (font, sizes, chrome, theme) and the CSS font its tokens draw
// in: what the panel drawing and the morph drawing share.
import { cssFontFamilies } from '../../fonts/fonts.ts';
import type { CodeToken, DrawEnv } from '../../canvas/types.ts';
import { resolveLength } from '../../layout/length.ts';
import { DEFAULT_CODE_LANGUAGE, DEFAULT_CODE_THEME } from '../../spec/code-element.ts';
import type { CodeElement } from '../../spec/code-element.ts';

const DEFAULT_SIZE = 30;
const DEFAULT_LINE_HEIGHT = 1.5;
const DEFAULT_PADDING_EM = 1.1;
const DEFAULT_RADIUS = 18;
const DEFAULT_ACCENT = '#58a6ff';
const BAR_HEIGHT_EM = 2;
/** Lines another line's focus dims keep this much of their opacity. */
export const DIMMED_ALPHA = 0.3;

/** Everything about a code element's look in real pixels. */
export interface CodeLook {
  family: string;
  size: number;
  lineHeight: number;
  padding: number;
  radius: number;
  barHeight: number;
  title: string | undefined;
  dots: boolean;
  /** Panel, bar, border and shadow: false draws the code alone. */
  chrome: boolean;
  lineNumbers: boolean;
  accent: string;
  background: string | undefined;
  language: string;
  theme: string;
}

export function codeLook(element: CodeElement, env: DrawEnv, overrideSize?: number): CodeLook {
  const context = { frame: env.size, scale: env.scale };
  const size =
    overrideSize !== undefined
      ? overrideSize * env.scale
      : resolveLength(element.size ?? DEFAULT_SIZE, env.size.height, context);
  const window = element.window ?? true;
  const dots = window !== false && (window === true || window.dots !== false);
  const title = typeof window === 'object' ? window.title : undefined;
  return {
    family: env.fontFamily(element.font ?? 'mono'),
    size,
    lineHeight: size * (element.lineHeight ?? DEFAULT_LINE_HEIGHT),
    padding:
      element.padding === undefined
        ? DEFAULT_PADDING_EM * size
        : resolveLength(element.padding, size, context),
    radius: resolveLength(element.radius ?? DEFAULT_RADIUS, size, context),
    barHeight: dots || title ? BAR_HEIGHT_EM * size : 0,
    title,
    dots,
    chrome: window !== false,
    lineNumbers: element.lineNumbers ?? false,
    accent: element.accent ?? DEFAULT_ACCENT,
    background: element.background,
    language: element.language ?? DEFAULT_CODE_LANGUAGE,
    theme: element.theme ?? DEFAULT_CODE_THEME,
  };
}

export function cssFont(
  look: CodeLook,
  token?: Pick<CodeToken, 'bold' | 'italic'>,
  size = look.size,
): string {
  const weight = token?.bold ? 700 : 400;
  return `${token?.italic ? 'italic ' : ''}${weight} ${Number(size.toFixed(3))}px ${cssFontFamilies([look.family])}`;
}

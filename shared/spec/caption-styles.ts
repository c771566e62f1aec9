// The captions element's styles, on their own so the CLI can offer them as choices without loading
// the spec schema (captions-element.ts re-exports them).
export const CAPTION_STYLES = ['subtitle', 'pop', 'karaoke'] as const;
export type CaptionStyle = (typeof CAPTION_STYLES)[number];

// Types for the part of webvtt-parser (W3C's WebVTT validator, which ships none) that Kino reads.
declare module 'webvtt-parser' {
  export interface WebVTTNode {
    type: 'text' | 'object';
    value?: string;
    name?: string;
    children?: WebVTTNode[];
  }
  export interface WebVTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
    tree: { children: WebVTTNode[] };
  }
  export interface WebVTTError {
    message: string;
    line: number;
    col?: number;
  }
  export class WebVTTParser {
    parse(
      input: string,
      mode?: 'subtitles' | 'chapters' | 'metadata',
    ): { cues: WebVTTCue[]; errors: WebVTTError[] };
  }
  const webvtt: { WebVTTParser: typeof WebVTTParser };
  export default webvtt;
}

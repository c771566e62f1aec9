// Caption files read as text for the captions element.
import { readTextFile } from './text-files.ts';

/** Ten times a feature film's subtitles: anything larger is not a caption file. */
export const MAX_CAPTION_FILE_BYTES = 4 * 1024 * 1024;

export function readCaptionFile(src: string, file: string, root: string): Promise<string> {
  return readTextFile(src, file, root, 'caption file', MAX_CAPTION_FILE_BYTES);
}

// Caption files read as text for the captions element: the resolved file, opened again inside the
// folder it was judged to be in, capped in size, decoded as UTF-8 (a byte-order mark dropped).
import { openInside } from '../fs/open-inside.ts';
import { MediaError } from './media-error.ts';

/** Ten times a feature film's subtitles: anything larger is not a caption file. */
export const MAX_CAPTION_FILE_BYTES = 4 * 1024 * 1024;

export async function readCaptionFile(src: string, file: string, root: string): Promise<string> {
  const opened = await openInside(root, file);
  if (!opened) throw new MediaError('missing_asset', `caption file ${src} not found`, { source: src });
  try {
    const { size } = opened.info;
    if (size > MAX_CAPTION_FILE_BYTES) {
      throw new MediaError(
        'media_too_large',
        `caption file ${src} is ${size} bytes, over the ${MAX_CAPTION_FILE_BYTES}-byte limit`,
        { source: src },
      );
    }
    const bytes = await opened.handle.readFile();
    return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  } finally {
    await opened.handle.close();
  }
}

// Text files a render reads (caption files, chart data files): the resolved file, opened again inside
// the folder it was judged to be in, capped in size, decoded as UTF-8 (a byte-order mark dropped).
import { openInside } from '../fs/open-inside.ts';
import { MediaError } from './media-error.ts';

/** `what` names the file in messages ("caption file", "data file"). */
export async function readTextFile(
  src: string,
  file: string,
  root: string,
  what: string,
  maxBytes: number,
): Promise<string> {
  const opened = await openInside(root, file);
  if (!opened) throw new MediaError('missing_asset', `${what} ${src} not found`, { source: src });
  try {
    const { size } = opened.info;
    if (size > maxBytes) {
      throw new MediaError(
        'media_too_large',
        `${what} ${src} is ${size} bytes, over the ${maxBytes}-byte limit`,
        {
          source: src,
        },
      );
    }
    const bytes = await opened.handle.readFile();
    return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  } finally {
    await opened.handle.close();
  }
}

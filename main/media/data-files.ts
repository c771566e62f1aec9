// Chart data files (CSV or JSON) read as text; parsing, with faults by row and column, is shared/'s.
import { readTextFile } from './text-files.ts';

/** A thousand rows of fifty columns of long numbers: anything larger is not chart data. */
export const MAX_DATA_FILE_BYTES = 2 * 1024 * 1024;

export function readDataFile(src: string, file: string, root: string): Promise<string> {
  return readTextFile(src, file, root, 'data file', MAX_DATA_FILE_BYTES);
}

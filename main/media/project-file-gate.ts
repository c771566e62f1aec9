// Which files inside a project a spec may name as media. Being inside the project is not enough: the
// project folder also holds its secrets (.env, keys), its config and its sources, and a spec could
// otherwise draw one into a frame (a `.env` that parses as SRT becomes captions) or embed it in the
// output. So a local source must look like media or data by its name, must not be the project's
// config, and no part of its path may be a dotfile or a dot folder. The rule holds for every element
// kind and for the preview's /media, which serves through the same resolver.
import { basename } from 'node:path';
import { PROJECT_CONFIG_FILES } from '../../shared/project/config.ts';
import { contentTypeFor } from '../http/content-type.ts';

/**
 * Images, video, sound and fonts, and the text a render reads: captions (SRT, VTT) and chart data
 * (CSV, JSON). ".ts" is MPEG-TS to the type database, but a TypeScript source in a project.
 */
const MEDIA_OR_DATA =
  /^(?:(image|video|audio|font)\/(?!mp2t$)|(text\/vtt|application\/x-subrip|text\/csv|application\/json)(;|$))/;

/** Config files of the project and of the tools around it, which are JSON but never chart data. */
const CONFIG_NAMES = new Set<string>([
  ...PROJECT_CONFIG_FILES,
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'composer.json',
  'deno.json',
  'jsconfig.json',
]);
const CONFIG_PATTERN = /^(tsconfig|tslint|\.?eslintrc|\.?prettierrc)([.-].*)?\.json$/i;

/** Why a project file may not be used as media, or undefined when it may. `path` is relative to its base. */
export function refusedProjectFile(path: string): string | undefined {
  const segments = path.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment.startsWith('.'))) {
    return 'a dotfile or a file in a dot folder (.env, .git, .ssh…) is private to the project';
  }
  const name = basename(path);
  if (CONFIG_NAMES.has(name) || CONFIG_PATTERN.test(name)) return 'the project configuration is not media';
  const type = contentTypeFor(name);
  if (!MEDIA_OR_DATA.test(type)) {
    return `only images, video, audio, fonts, captions (.srt, .vtt) and data (.csv, .json) are media, not ${type}`;
  }
  return undefined;
}

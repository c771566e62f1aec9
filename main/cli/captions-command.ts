// `kino captions <clip> <subtitles>`: a captioned reel in one command (see captions-reel.ts, imported
// when the command runs so that the CLI's start-up does not pay for it).
import { Option } from 'commander';
import type { Command } from 'commander';
import { QUALITIES } from '../../shared/output/formats.ts';
import { CAPTION_STYLES } from '../../shared/spec/caption-styles.ts';
import { ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import { addEncoderOptions } from './encoder-options.ts';
import { parseWholeNumber } from './option-parsers.ts';
import type { CaptionsCommandOptions } from './captions-reel.ts';

export function registerCaptionsCommand(program: Command): Command {
  const captions = program
    .command('captions')
    .description(
      'Caption a clip from an SRT or WebVTT file: the clip full-bleed with its sound, captions over it, as a verified mp4',
    )
    .argument('<clip>', 'the video to caption (mp4, mov, webm)')
    .argument('<subtitles>', 'its subtitles (.srt or .vtt)')
    .addOption(
      new Option('--style <style>', 'how the captions look').choices(CAPTION_STYLES).default('subtitle'),
    )
    .option(
      '-o, --output <file>',
      'output file (default: <clip name>.captioned.mp4 in the current directory)',
    )
    .addOption(
      new Option('--aspect <aspect>', "output aspect (default: the clip's own size)").choices(ASPECT_NAMES),
    )
    .addOption(new Option('-q, --quality <quality>', 'quality level').choices(QUALITIES).default('standard'))
    .option('--frames <n>', 'render only the first n frames', parseWholeNumber)
    .option('--json', 'print the result (path, bytes, sha256, probe, timings, receipt) as JSON');
  addEncoderOptions(captions).action(
    async (clip: string, subtitles: string, opts: CaptionsCommandOptions) => {
      const { captionsCommand } = await import('./captions-reel.ts');
      await captionsCommand(clip, subtitles, opts);
    },
  );
  return program;
}

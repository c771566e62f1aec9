// Paints the still images and synthesises the sounds into a directory (see examples/make-media.sh,
// which encodes the video and the AAC music from these and adds the voice-over).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paintCity } from './paint-city.ts';
import { paintLogo } from './paint-logo.ts';
import { paintMountains } from './paint-mountains.ts';
import { MUSIC_RATE, synthMusicLoop } from './synth-music.ts';
import { SFX_RATE, synthClick, synthWhoosh } from './synth-sfx.ts';
import { encodeWav } from './wav.ts';

const [assetsDir, workDir] = process.argv.slice(2);
if (!assetsDir || !workDir) {
  process.stderr.write('usage: write-media.ts <assets-dir> <work-dir>\n');
  process.exit(64);
}
mkdirSync(assetsDir, { recursive: true });
mkdirSync(workDir, { recursive: true });

writeFileSync(join(assetsDir, 'photo-mountains.jpg'), paintMountains());
writeFileSync(join(assetsDir, 'photo-city.jpg'), paintCity());
writeFileSync(join(assetsDir, 'logo.png'), paintLogo());
writeFileSync(join(assetsDir, 'whoosh.wav'), encodeWav(synthWhoosh(), SFX_RATE));
writeFileSync(join(assetsDir, 'click.wav'), encodeWav(synthClick(), SFX_RATE));
// The music is encoded to AAC by ffmpeg; it goes to the work directory as WAV first.
writeFileSync(join(workDir, 'music-loop.wav'), encodeWav(synthMusicLoop(), MUSIC_RATE));

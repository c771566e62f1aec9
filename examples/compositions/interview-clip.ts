// Interview clip: footage with word-timed pop captions, pasted as a transcriber emits them (Whisper's
// `word`, `start`, `end`), a name that types itself in, and a counter for the number being quoted.
import { captions, clip, counter, fadeIn, music, rect, scene, sfx, text, typewriter, video } from 'kino';

/** A transcript as Whisper-style tools emit it: words with start and end times in seconds. */
const transcript = [
  { word: 'We', start: 0.4, end: 0.55 },
  { word: 'shipped', start: 0.55, end: 0.95 },
  { word: 'every', start: 0.95, end: 1.25 },
  { word: 'week', start: 1.25, end: 1.6 },
  { word: 'this', start: 1.7, end: 1.9 },
  { word: 'year.', start: 1.9, end: 2.3 },
  { word: 'Fifty-two', start: 2.7, end: 3.2 },
  { word: 'releases,', start: 3.2, end: 3.7 },
  { word: 'zero', start: 3.8, end: 4.1 },
  { word: 'downtime.', start: 4.1, end: 4.8 },
];

const talk = scene({ duration: '6s', audio: [sfx('asset:click.wav', { start: '2.6s', volume: 0.5 })] }, [
  clip('asset:clip-waves.mp4', { box: 'frame', width: '100%', height: '100%', loop: true, muted: true }),
  rect({
    box: 'frame',
    width: '100%',
    height: '100%',
    fill: { type: 'linear', colors: ['rgba(0, 0, 0, 0.35)', 'rgba(0, 0, 0, 0.7)'], angle: 90 },
  }),
  text('Mara Lindqvist, Head of Platform', {
    x: 0,
    y: 0.02,
    anchor: 'top-left',
    align: 'left',
    font: 'display',
    size: 52,
    color: '#e2e8f0',
    background: { color: 'rgba(15, 23, 42, 0.8)', paddingX: 20, paddingY: 10, radius: 10 },
  }).animate(typewriter({ delay: '0.2s', rate: 24, cursor: true })),
  counter(52, {
    y: 0.3,
    font: 'display',
    size: 170,
    color: '#facc15',
    suffix: ' releases',
    countDelay: '2.6s',
    countDuration: '1.2s',
  }).animate(fadeIn({ delay: '2.5s', duration: '0.3s' })),
  captions({ words: transcript, style: 'pop', position: 'center', y: 0.62, height: '30%' }),
]);

export default video({ title: 'Interview clip', fps: 30, aspect: 'reels', background: '#0b1220' }, [talk], {
  audio: [music('asset:music-loop.m4a', { volume: 0.3, fadeOut: '1s' })],
});

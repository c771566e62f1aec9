import { describe, expect, it } from 'vitest';
import { describeCaptionFault, parseCaptions } from './parse.ts';

const good = `1
00:00:01,000 --> 00:00:02,500
Hello <i>world</i>
second line

2
00:00:03,000 --> 00:00:04,000
<b>Next</b> one
`;

function faults(format: 'srt' | 'vtt', text: string): string[] {
  const result = parseCaptions(format, text);
  if (result.ok) throw new Error('expected faults');
  return result.faults.map((fault) => describeCaptionFault(format, fault));
}

describe('parseCaptions', () => {
  it('reads SRT cues with their numbers, timing lines and text without markup', () => {
    const result = parseCaptions('srt', good);
    expect(result).toEqual({
      ok: true,
      cues: [
        { number: 1, line: 2, start: 1, end: 2.5, text: 'Hello world\nsecond line' },
        { number: 2, line: 7, start: 3, end: 4, text: 'Next one' },
      ],
    });
  });

  it('reads WebVTT with short timestamps, cue settings and voice spans', () => {
    const result = parseCaptions(
      'vtt',
      'WEBVTT\n\n00:01.000 --> 00:02.000 align:start\n<v Bob>Hi <c.loud>there</c>\n',
    );
    expect(result).toEqual({ ok: true, cues: [{ number: 1, line: 3, start: 1, end: 2, text: 'Hi there' }] });
  });

  it('takes CRLF line ends and a byte-order mark', () => {
    const result = parseCaptions('srt', '\uFEFF1\r\n00:00:01,000 --> 00:00:02,000\r\nWin\r\n\r\n');
    expect(result.ok && result.cues.map((cue) => cue.text)).toEqual(['Win']);
  });

  it('names the cue and line of a malformed timestamp', () => {
    expect(
      faults('srt', `1\n00:00:01,000 --> 00:0x:02,500\nBroken\n\n2\n00:00:03,000 --> 00:00:04,000\nOk\n`),
    ).toEqual([expect.stringMatching(/^SRT cue 1 \(line 2\): /)]);
  });

  it('names an end before its start', () => {
    expect(faults('srt', '1\n00:00:05,000 --> 00:00:02,500\nBackwards\n')).toEqual([
      'SRT cue 1 (line 2): end timestamp is not greater than start timestamp',
    ]);
  });

  it('names a cue without timing, and text that is no captions at all', () => {
    expect(faults('srt', '1\nHello there\n\n2\n00:00:03,000 --> 00:00:04,000\nOk\n')[0]).toMatch(
      /^SRT line 2: cue identifier needs to be followed by timestamp/,
    );
    expect(faults('srt', 'hello world, not subtitles')).toEqual([expect.stringMatching(/^SRT line 2: /)]);
    expect(faults('srt', '')).toEqual([
      'SRT line 1: no cues found: expected numbered SRT cues with "start --> end" timing lines',
    ]);
  });

  it('names overlapping cues and cues out of order', () => {
    expect(
      faults('srt', '1\n00:00:01,000 --> 00:00:03,000\nA\n\n2\n00:00:02,000 --> 00:00:04,000\nB\n'),
    ).toEqual([
      'SRT cue 2 (line 6): starts at 00:00:02.000, before cue 1 ends at 00:00:03.000: cues must not overlap',
    ]);
    expect(
      faults('srt', '1\n00:00:05,000 --> 00:00:06,000\nA\n\n2\n00:00:02,000 --> 00:00:04,000\nB\n')[0],
    ).toMatch(
      /^SRT cue 2 \(line 6\): start timestamp is not greater than or equal to start timestamp of previous cue/,
    );
  });

  it('lets back-to-back cues overlap by a rounding, ending the earlier one where the next starts', () => {
    const result = parseCaptions(
      'srt',
      '1\n00:00:01,000 --> 00:00:02,030\nA\n\n2\n00:00:02,000 --> 00:00:03,000\nB\n',
    );
    expect(result.ok && result.cues.map((cue) => [cue.start, cue.end])).toEqual([
      [1, 2],
      [2, 3],
    ]);
  });

  it('refuses a missing WEBVTT header', () => {
    expect(faults('vtt', '00:01.000 --> 00:02.000\nHi\n')[0]).toMatch(
      /^VTT cue 1 \(line 1\): no valid signature/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { fieldErrors } from './problem.ts';

const patternError = (instancePath: string) => ({
  instancePath,
  schemaPath: '#/properties/x/pattern',
  keyword: 'pattern',
  params: { pattern: '^(6[4-9]|[7-9]\\d|[12]\\d\\d|3[01]\\d|320)k$' },
  message: 'must match pattern "^(6[4-9]|[7-9]\\d|[12]\\d\\d|3[01]\\d|320)k$"',
});

describe('fieldErrors', () => {
  it('words an audio bitrate pattern for people, in the options and in each output', () => {
    const expected = 'expected 64k to 320k in whole kbit/s, like "96k"';
    expect(fieldErrors([patternError('/options/encoder/audioBitrate')], 'body')).toEqual([
      { pointer: '/options/encoder/audioBitrate', message: expected },
    ]);
    expect(fieldErrors([patternError('/options/outputs/2/encoder/audioBitrate')], 'body')).toEqual([
      { pointer: '/options/outputs/2/encoder/audioBitrate', message: expected },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { locateTrack } from './source-location.ts';
import type { Track } from './timeline-tracks.ts';

const track = (needles: string[], pointer = ''): Track => ({
  key: 's0/e0',
  kind: 'element',
  label: needles[0] ?? 'rect',
  type: 'text',
  startFrame: 0,
  endFrame: 30,
  pointer,
  needles,
});

const CODE = `import { text } from 'kino';
const a = text("Say \\"hi\\"", { size: 40 });
const b = text('Second', { id: 'second' });
const c = text(\`Multi
line\`);
`;

describe('locateTrack in a .ts source', () => {
  it('finds an element by its id first, else its text, as a string literal', () => {
    expect(locateTrack(CODE, track(['second', 'Second']), false)).toEqual({
      startLineNumber: 3,
      startColumn: 32,
      endLineNumber: 3,
      endColumn: 40,
    });
    expect(locateTrack(CODE, track(['Say "hi"']), false)?.startLineNumber).toBe(2);
    expect(locateTrack(CODE, track(['Multi\nline']), false)?.startLineNumber).toBe(4);
  });

  it('answers undefined for an element written without a literal', () => {
    expect(locateTrack(CODE, track(['Built from a variable']), false)).toBeUndefined();
    expect(locateTrack(CODE, track([]), false)).toBeUndefined();
  });
});

describe('locateTrack in a JSON spec', () => {
  it('goes by the row pointer', () => {
    const json =
      '{\n  "scenes": [\n    { "elements": [\n      { "type": "text", "text": "Second" }\n    ] }\n  ]\n}';
    expect(locateTrack(json, track(['Second'], '/scenes/0/elements/0'), true)).toMatchObject({
      startLineNumber: 4,
      startColumn: 7,
    });
    expect(locateTrack(json, track(['Second'], '/scenes/3'), true)).toBeUndefined();
  });
});

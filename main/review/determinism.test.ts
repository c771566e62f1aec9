import { describe, expect, it } from 'vitest';
import { loadComposition } from '../composition/load.ts';
import { fixturePath, reviewFixture } from './visual/review.fixture.ts';

const mount = (kind: 'trigger' | 'clean') => () => loadComposition(fixturePath('nondeterministic', kind));

describe('nondeterministic', () => {
  it('flags sparkles placed with Math.random(): every sampled frame differs in a fresh mount', async () => {
    const result = await reviewFixture('nondeterministic', 'trigger', { mount: mount('trigger') });
    expect(result.determinism).toHaveLength(result.samples.length);
    expect(
      result.determinism!.every((frame) => !frame.match && frame.firstSha256 !== frame.secondSha256),
    ).toBe(true);
    const found = result.drafts.filter((draft) => draft.code === 'nondeterministic');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      severity: 'error',
      startFrame: 0,
      endFrame: 45,
      focusFrame: 0,
      element: 's0/e0',
    });
    expect(found[0]!.message).toMatch(
      /^24 of 24 sampled frames come out different .*custom \(id "sparkles", s0\/e0\)$/,
    );
    expect(found[0]!.remedy).toContain('replace Math.random()');
    expect(result.drafts.filter((draft) => draft.code !== 'nondeterministic')).toEqual([]);
  });

  it('passes the seeded sparkles: every frame hashes the same in both mounts', async () => {
    const result = await reviewFixture('nondeterministic', 'clean', { mount: mount('clean') });
    expect(result.determinism!.map((frame) => frame.frame)).toEqual(
      result.samples.map((sample) => sample.frame),
    );
    expect(
      result.determinism!.every((frame) => frame.match && frame.firstSha256 === frame.secondSha256),
    ).toBe(true);
    expect(result.drafts).toEqual([]);
  });
});

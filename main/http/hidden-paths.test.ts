import { describe, expect, it } from 'vitest';
import { hidePaths, hidePathsDeep } from './hidden-paths.ts';

const hidden = [
  { path: '/tmp', as: '<tmp>' },
  { path: '/tmp/kino-x/proj', as: '<render project>' },
  { path: '/root/.cache/kino/media', as: '<media cache>' },
];

describe('hidePaths', () => {
  it('names each folder, the most specific first, wherever the message mentions it', () => {
    expect(
      hidePaths(
        'media source "/srv/a.png" must be relative to the project (/tmp/kino-x/proj), not an absolute path',
        hidden,
      ),
    ).toBe(
      'media source "/srv/a.png" must be relative to the project (<render project>), not an absolute path',
    );
    expect(
      hidePaths('cannot decode /root/.cache/kino/media/3f2a.mp4; see /tmp/kino-x/proj/assets', hidden),
    ).toBe('cannot decode <media cache>/3f2a.mp4; see <render project>/assets');
    expect(hidePaths('wrote /tmp/other/file.png.', hidden)).toBe('wrote <tmp>/other/file.png.');
  });

  it('hides whole folder names only, and leaves a message without them as it is', () => {
    expect(hidePaths('in /tmpfiles and /tmp/kino-x/project2', hidden)).toBe(
      'in /tmpfiles and <tmp>/kino-x/project2',
    );
    expect(hidePaths('media source "asset:logo.png" not found', hidden)).toBe(
      'media source "asset:logo.png" not found',
    );
    expect(hidePaths('at /', [{ path: '/', as: '<root>' }])).toBe('at /');
  });
});

describe('hidePathsDeep', () => {
  it('hides paths in every string of a finding list, leaving numbers and keys alone', () => {
    const review = {
      findings: [
        { code: 'missing_asset', startFrame: 3, remedy: 'put the PNG at /srv/kino/project/assets/x.png' },
      ],
      checked: 24,
    };
    expect(hidePathsDeep(review, [{ path: '/srv/kino/project', as: '<render project>' }])).toEqual({
      findings: [
        { code: 'missing_asset', startFrame: 3, remedy: 'put the PNG at <render project>/assets/x.png' },
      ],
      checked: 24,
    });
  });
});

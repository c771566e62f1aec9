import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { VideoModel } from '../../shared/spec/model.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { loadComposition } from '../composition/load.ts';
import { projectContext } from '../engine/project-context.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import { collectResourceFacts } from '../inspect/resource-facts.ts';
import { projectForFile } from '../project/load.ts';
import type { FindingDraft } from './finding.ts';
import { resourceFindings } from './resource-checks.ts';

const fixtures = fileURLToPath(new URL('../../e2e/fixtures/findings', import.meta.url));
const fixtureAssets = join(fixtures, 'assets');

async function findingsFor(model: VideoModel, project: RenderProjectContext): Promise<FindingDraft[]> {
  const video = resolveTimeline(model);
  return resourceFindings(await collectResourceFacts(model, video, project), video);
}

async function fixtureFindings(name: string): Promise<FindingDraft[]> {
  const file = join(fixtures, `${name}.ts`);
  const project = await projectContext(await projectForFile(file));
  return findingsFor(await loadComposition(file), project);
}

describe('font_not_bundled', () => {
  it('flags text in a family that is neither bundled nor declared, on the frames it shows', async () => {
    const findings = await fixtureFindings('font_not_bundled.trigger');
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding).toMatchObject({
      code: 'font_not_bundled',
      severity: 'warning',
      element: 's0/e0',
      startFrame: 0,
      endFrame: 60,
    });
    expect(finding!.message).toContain('"Brand"');
    expect(finding!.remedy).toContain('{ family: "Brand", src: "asset:fonts/Brand.ttf" }');
    expect(finding!.remedy).toContain(join(fixtureAssets, 'fonts', 'Brand.ttf'));
  });

  it('is quiet once the family is declared with its file in the assets', async () => {
    expect((await fixtureFindings('font_not_bundled.clean')).map((f) => f.code)).not.toContain(
      'font_not_bundled',
    );
  });

  it('flags a declared face that comes from a URL', async () => {
    const project = await projectContext(await projectForFile(join(fixtures, 'kino.json')));
    project.media.policy = { ...project.media.policy, allowHosts: ['fonts.example.com'] };
    const model: VideoModel = {
      kinoSpec: 1,
      fonts: [{ family: 'Web', src: 'https://fonts.example.com/web/Web-Bold.ttf' }],
      scenes: [{ duration: 1, elements: [{ type: 'text', text: 'From the web', font: 'Web', start: 0.5 }] }],
    };
    const [finding, ...rest] = await findingsFor(model, project);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      code: 'font_not_bundled',
      element: 's0/e0',
      startFrame: 15,
      endFrame: 30,
    });
    expect(finding!.remedy).toContain(
      `download https://fonts.example.com/web/Web-Bold.ttf to ${join(fixtureAssets, 'fonts', 'Web-Bold.ttf')}`,
    );
    expect(finding!.remedy).toContain('"asset:fonts/Web-Bold.ttf"');
  });
});

describe('missing_asset', () => {
  it('flags a media source that is not there, on the frames it shows, naming the likely file', async () => {
    const findings = await fixtureFindings('missing_asset.trigger');
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding).toMatchObject({
      code: 'missing_asset',
      severity: 'error',
      element: 's0/e0',
      // Shown from 0.5 s for 1 s.
      startFrame: 15,
      endFrame: 45,
    });
    expect(finding!.message).toContain('"asset:crad.png"');
    expect(finding!.remedy).toContain('change the src of s0/e0 to "asset:card.png"');
    expect(finding!.remedy).toContain(join(fixtureAssets, 'crad.png'));
  });

  it('is quiet once the src names the file that exists', async () => {
    expect((await fixtureFindings('missing_asset.clean')).map((f) => f.code)).not.toContain('missing_asset');
  });

  it('flags a missing font file and a missing sound on the frames that need them', async () => {
    const project = await projectContext(await projectForFile(join(fixtures, 'kino.json')));
    const model: VideoModel = {
      kinoSpec: 1,
      fonts: [{ family: 'Brand', src: 'asset:fonts/Brand-Bold.ttf' }],
      audio: [{ src: 'asset:voice.wav', start: 1, duration: 0.5 }],
      scenes: [{ duration: 2, elements: [{ type: 'text', text: 'Hi', font: 'Brand', duration: 1 }] }],
    };
    const findings = await findingsFor(model, project);
    expect(findings.map((f) => [f.code, f.severity, f.element, f.startFrame, f.endFrame])).toEqual([
      ['missing_asset', 'error', undefined, 30, 45],
      ['missing_asset', 'error', 's0/e0', 0, 30],
    ]);
    expect(findings[0]!.message).toContain('soundtrack entry audio/0');
    expect(findings[0]!.remedy).toContain(join(fixtureAssets, 'voice.wav'));
    // Reported as the missing file, not also as a fallback face.
    expect(findings[1]!.message).toContain('font file "asset:fonts/Brand-Bold.ttf"');
    expect(findings[1]!.remedy).toContain('change the src of the "Brand" entry');
  });

  it('tells how to allow a remote host the policy refuses', async () => {
    const project = await projectContext(await projectForFile(join(fixtures, 'kino.json')));
    const model: VideoModel = {
      kinoSpec: 1,
      scenes: [{ duration: 1, background: { type: 'image', src: 'https://cdn.example.com/bg.jpg' } }],
    };
    const [finding] = await findingsFor(model, project);
    expect(finding).toMatchObject({ code: 'missing_asset', element: undefined, startFrame: 0, endFrame: 30 });
    expect(finding!.message).toContain('the background of scene s0');
    expect(finding!.remedy).toContain('add "cdn.example.com" to media.allowHosts in kino.json');
    expect(finding!.remedy).toContain('"asset:bg.jpg"');
  });
});

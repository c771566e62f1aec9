// A smoke test against a real AI provider: it runs only when a real key is in the environment
// (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY or OPENAI_COMPATIBLE_BASE_URL,
// AI_PROVIDER to pick one), and says loudly that it skipped otherwise.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { readAiSettings } from '../main/authoring/providers.ts';
import { runKino } from './cli-helpers.ts';

const settings = readAiSettings(process.env);
const live = settings.providers.length > 0 && settings.defaultProvider !== undefined;
if (!live) {
  console.warn(
    '\n*** SKIPPING the live AI authoring test: no AI provider key is set (OPENAI_API_KEY, ANTHROPIC_API_KEY, ' +
      'GOOGLE_GENERATIVE_AI_API_KEY or OPENAI_COMPATIBLE_BASE_URL; AI_PROVIDER when several are). ***\n',
  );
}

describe.skipIf(!live)('kino generate against the real provider', () => {
  it('authors a short video that validates, and renders it', async () => {
    const work = mkdtempSync(join(tmpdir(), 'kino-live-ai-'));
    try {
      const out = join(work, 'live.mp4');
      const result = await runKino(
        [
          'generate',
          'A 4-second square video: the word "Kino" fades in on a dark blue background, then the line "Videos from code" appears below it.',
          '--aspect',
          'square',
          '-q',
          'draft',
          '-o',
          out,
          '--spec-out',
          join(work, 'live.json'),
        ],
        { cwd: work },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/spec authored in \d answer/);
      const probe = await probeFile(out);
      expect(probe.video?.width).toBe(540);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 600_000);
});

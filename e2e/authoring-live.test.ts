// Smoke tests against the real AI providers: each runs only when its own key is in the environment
// (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, or OPENAI_COMPATIBLE_BASE_URL
// with OPENAI_COMPATIBLE_MODEL), and says loudly that it skipped otherwise. Each generates a short
// video, renders it, then edits the written spec with words and checks that only what was asked
// changed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { AI_PROVIDERS, readAiSettings } from '../main/authoring/providers.ts';
import { runKino } from './cli-helpers.ts';

const KEYS: Record<(typeof AI_PROVIDERS)[number], string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
  'openai-compatible': 'OPENAI_COMPATIBLE_BASE_URL (with OPENAI_COMPATIBLE_MODEL)',
};

const configured = (() => {
  try {
    return readAiSettings(process.env).providers.map((provider) => provider.name);
  } catch {
    return [];
  }
})();

for (const provider of AI_PROVIDERS) {
  const live = configured.includes(provider);
  if (!live) {
    console.warn(`\n*** SKIPPING the live ${provider} authoring test: ${KEYS[provider]} is not set. ***\n`);
  }

  describe.skipIf(!live)(`kino generate and kino edit against the real ${provider}`, () => {
    it('authors a short video that validates and renders, then edits only what was asked', async () => {
      const work = mkdtempSync(join(tmpdir(), `kino-live-${provider}-`));
      try {
        const out = join(work, 'live.mp4');
        const specPath = join(work, 'live.json');
        const generated = await runKino(
          [
            'generate',
            'A 4-second square video: the word "Kino" fades in on a dark blue background, then the line "Videos from code" appears below it.',
            '--provider',
            provider,
            '--aspect',
            'square',
            '-q',
            'draft',
            '-o',
            out,
            '--spec-out',
            specPath,
          ],
          { cwd: work },
        );
        expect(generated.code, generated.stderr).toBe(0);
        expect(generated.stderr).toMatch(/spec authored in \d answer/);
        expect(generated.stderr).not.toMatch(/AI SDK Warning/);
        expect((await probeFile(out)).video?.width).toBe(540);

        const edited = await runKino(
          [
            'edit',
            specPath,
            'Make the word "Kino" read "Kino Studio" instead.',
            '--provider',
            provider,
            '--dry-run',
          ],
          { cwd: work },
        );
        expect(edited.code, edited.stderr).toBe(0);
        const changes = /changed: (.*)/.exec(edited.stderr)?.[1]?.split(', ') ?? [];
        expect(changes.length).toBeGreaterThan(0);
        // A text changed; no scene was added, removed or retimed.
        expect(changes.every((pointer) => /^\/scenes\/\d+\/elements\//.test(pointer))).toBe(true);
        expect(readFileSync(edited.stdout.trim(), 'utf8')).toContain('Kino Studio');
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    }, 600_000);
  });
}

// Generate and Edit with words in Kino Studio (browser mode): `kino studio` as a real process whose
// environment points the OpenAI provider at the loopback stand-in (which speaks OpenAI's real HTTP
// API and refuses what it refuses), driven in real Chromium. A prompt on Home becomes a new
// specs/*.json by stages (authoring, reviewing, a repair), with its authoring record; a second one
// never overwrites the first; an edit comes back as a changed spec for the user to accept; and a
// studio without a provider says which variables to set.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthoringJobView } from '../shared/studio/authoring.ts';
import { editAnswer, startProviderStandIn, textScene } from '../main/authoring/provider-stand-in.fixture.ts';
import type { ProviderStandIn } from '../main/authoring/provider-stand-in.fixture.ts';
import { TWO_SCENE_SPEC } from '../main/authoring/provider-stand-in.fixture.ts';
import { hasChromium, warnIfNoChromium } from './chromium.ts';
import type { StudioSession } from './studio-harness.ts';
import { openStudioSession, studioShot } from './studio-harness.ts';

warnIfNoChromium('e2e/studio-words.test.ts', 'Generate and Edit with words');

const KEY = 'sk-studio-standin-secret-0451';
const SPEC = { ...TWO_SCENE_SPEC, title: 'Hello World teaser' };
const PROMPT = 'Two scenes: Hello, then World';
/** Every variable readAiSettings reads, so the machine's own keys never leak into a run. */
const AI_ENV = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'ANTHROPIC_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'OPENAI_COMPATIBLE_BASE_URL',
  'AI_PROVIDER',
];

/** `kino studio` inherits this process's environment: set the AI variables for the next start. */
function useAiEnv(values: Record<string, string>): void {
  for (const name of AI_ENV) delete process.env[name];
  Object.assign(process.env, values);
}

/** The studio's host API as the page calls it, with the token from its link. */
async function hostApi<T>(session: StudioSession, path: string, init: RequestInit = {}): Promise<T> {
  const url = new URL(session.studio.url);
  const token = decodeURIComponent(url.hash.replace(/^#token=/, ''));
  const response = await fetch(`${url.origin}${path}`, {
    ...init,
    headers: { 'x-kino-token': token, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = (await response.json()) as T;
  if (!response.ok) throw Object.assign(new Error(JSON.stringify(body)), { status: response.status, body });
  return body;
}

/** Home, once it knows whether there is a provider. */
async function openHome(page: Page): Promise<void> {
  await page.getByTitle('Home: open another composition').click();
  await page.getByRole('button', { name: 'Generate' }).waitFor();
  await page.waitForFunction(
    () => !document.querySelector('[data-testid="generate-provider"]')?.textContent?.startsWith('Checking'),
  );
}

async function generate(page: Page, prompt: string): Promise<void> {
  await page.getByLabel('What the video should show').fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.waitForSelector('[data-testid="words-progress"][data-state="done"]', { timeout: 60_000 });
}

const savedEnv = Object.fromEntries(AI_ENV.map((name) => [name, process.env[name]]));

describe.skipIf(!hasChromium)('Kino Studio: Generate and Edit with words', () => {
  let standIn: ProviderStandIn;
  let session: StudioSession;
  let page: Page;

  beforeAll(async () => {
    standIn = await startProviderStandIn();
    useAiEnv({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: standIn.baseURL.openai, OPENAI_MODEL: 'gpt-stand-in' });
    session = await openStudioSession('compositions/travel-reel.ts');
    page = session.page;
    await page.goto(session.studio.url);
    await page.waitForSelector('[data-testid="file-name"]');
  });

  afterAll(async () => {
    await session?.close();
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    expect(standIn?.misfits ?? []).toEqual([]);
    await standIn?.close();
  });

  it('Generate on Home: stages, a repair, the record, and a new specs/*.json', async () => {
    await openHome(page);
    expect(await page.textContent('[data-testid="generate-provider"]')).toContain('openai gpt-stand-in');
    // The first answer's 12 px text is found too small on the review's frames and sent back once.
    standIn.script(
      { json: { ...SPEC, scenes: [textScene('Hello', '#101826', 12), SPEC.scenes[1]] } },
      { json: SPEC },
    );
    await generate(page, PROMPT);

    const stages = await page.locator('[data-testid="words-stage"] .words-stage-label').allTextContents();
    expect(stages).toEqual([
      'Authoring with openai gpt-stand-in',
      'Reviewing answer 1 on sampled frames',
      'Repair 1: asking openai again',
      'Reviewing answer 2 on sampled frames',
    ]);
    const record = page.locator('[data-testid="words-record"]');
    expect(await record.textContent()).toMatch(/Answers\s*2 \(1 repair\)/);
    expect(await record.textContent()).toContain('text_too_small');
    expect(await page.textContent('[data-testid="words-record-provider"]')).toBe('openai gpt-stand-in');

    const written = join(session.project, 'specs', 'hello-world-teaser.json');
    expect(await page.textContent('[data-testid="generate-written"]')).toContain(
      'specs/hello-world-teaser.json',
    );
    expect(JSON.parse(readFileSync(written, 'utf8'))).toEqual(SPEC);

    await studioShot(page, 'words-generate');

    // What the AI sees: the prompt as sent and the instructions, with the call's tokens.
    await page.getByText('What the AI sees').click();
    const briefing = page.locator('[data-testid="words-briefing"]');
    await briefing.locator('pre').first().waitFor();
    expect(await briefing.textContent()).toMatch(/What the AI sees \([\d,]+ tokens\)/);
    expect(await briefing.locator('pre').first().textContent()).toContain(PROMPT);
    await briefing.scrollIntoViewIfNeeded();
    await studioShot(page, 'words-briefing');
    expect(session.studio.output()).not.toContain(KEY);
  });

  it('a second Generate to the same name writes beside the first, never over it', async () => {
    const first = join(session.project, 'specs', 'hello-world-teaser.json');
    const before = readFileSync(first, 'utf8');
    standIn.script({ json: { ...SPEC, fps: 24 } });
    await generate(page, PROMPT);
    expect(await page.textContent('[data-testid="generate-written"]')).toContain(
      'specs/hello-world-teaser-2.json',
    );
    expect(readFileSync(first, 'utf8')).toBe(before);
    expect(
      JSON.parse(readFileSync(join(session.project, 'specs', 'hello-world-teaser-2.json'), 'utf8')),
    ).toEqual({
      ...SPEC,
      fps: 24,
    });
  });

  it('Edit with words: the host edits the spec as `kino edit` does and writes nothing itself', async () => {
    const file = join(session.project, 'specs', 'hello-world-teaser.json');
    const before = readFileSync(file, 'utf8');
    standIn.script(editAnswer({ op: 'replace', path: '/scenes/0/background', value: '#7c2d12' }));
    let job = await hostApi<AuthoringJobView>(session, '/studio/api/authoring/jobs', {
      method: 'POST',
      body: JSON.stringify({ kind: 'edit', spec: JSON.parse(before), change: 'a dark red first scene' }),
    });
    while (job.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = await hostApi<AuthoringJobView>(session, `/studio/api/authoring/jobs/${job.id}`);
    }
    expect(job.error).toBeNull();
    expect(job.edited?.changes).toEqual(['/scenes/0/background']);
    expect(job.edited?.spec).toEqual({
      ...SPEC,
      scenes: [{ ...SPEC.scenes[0], background: '#7c2d12' }, SPEC.scenes[1]],
    });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('opens the generated spec through the open path', async (context) => {
    await page.getByTestId('generate-open').click();
    // Opening JSON specs in the workbench is another part of the studio: until it is in, the open
    // path refuses the file by name; once it is, the studio navigates to it.
    const outcome = await Promise.race([
      page
        .waitForFunction(() =>
          document
            .querySelector('[data-testid="file-name"]')
            ?.textContent?.includes('hello-world-teaser-2.json'),
        )
        .then(() => 'opened' as const),
      page.waitForSelector('[data-testid="generate-open-error"]').then(() => 'refused' as const),
    ]);
    if (outcome === 'refused') {
      expect(await page.textContent('[data-testid="generate-open-error"]')).toContain(
        'hello-world-teaser-2.json',
      );
      context.skip('this studio cannot open JSON specs yet: Edit with words in the editor needs it');
      return;
    }
    // Edit with words over the open spec: the change shown value by value, written only on Accept.
    const file = join(session.project, 'specs', 'hello-world-teaser-2.json');
    await page.getByLabel('Edit with words').waitFor();
    standIn.script(editAnswer({ op: 'replace', path: '/scenes/1/background', value: '#14532d' }));
    await page.getByLabel('Edit with words').fill('a green second scene');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.waitForSelector('[data-testid="edit-diff"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid="edit-diff"]')).toContain('/scenes/1/background');
    expect(JSON.parse(readFileSync(file, 'utf8')).scenes[1].background).toBe('#1f2937');
    await studioShot(page, 'words-edit');
    await page.getByTestId('edit-accept').click();
    await page.waitForSelector('[data-testid="edit-diff"]', { state: 'detached' });
    expect(JSON.parse(readFileSync(file, 'utf8')).scenes[1].background).toBe('#14532d');
  });
});

describe.skipIf(!hasChromium)('Kino Studio without an AI provider', () => {
  let session: StudioSession;

  beforeAll(async () => {
    useAiEnv({});
    session = await openStudioSession('compositions/travel-reel.ts');
    await session.page.goto(session.studio.url);
    await session.page.waitForSelector('[data-testid="file-name"]');
  });

  afterAll(async () => {
    await session?.close();
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('keeps the Generate button and names the variables that enable it', async () => {
    const { page } = session;
    await openHome(page);
    const text = await page.textContent('[data-testid="generate-provider"]');
    for (const name of [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GOOGLE_GENERATIVE_AI_API_KEY',
      'OPENAI_COMPATIBLE_BASE_URL',
    ]) {
      expect(text).toContain(name);
    }
    expect(await page.getByRole('button', { name: 'Generate' }).isDisabled()).toBe(true);
    await studioShot(page, 'words-no-provider');
    // The host refuses the job itself too, with the same line.
    const refused = await hostApi(session, '/studio/api/authoring/jobs', {
      method: 'POST',
      body: JSON.stringify({ kind: 'generate', prompt: PROMPT }),
    }).catch((error: { status: number; body: { detail: string } }) => error);
    expect(refused).toMatchObject({
      status: 503,
      body: { detail: expect.stringContaining('OPENAI_API_KEY') },
    });
    expect(existsSync(join(session.project, 'specs', 'two-scenes-hello-then-world.json'))).toBe(false);
  });
});

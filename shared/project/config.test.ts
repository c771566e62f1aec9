import { describe, expect, it } from 'vitest';
import { compositionEntryKind, parseProjectConfig, projectPathProblem } from './config.ts';

describe('parseProjectConfig', () => {
  it('accepts the documented example config', () => {
    const result = parseProjectConfig({
      name: 'Kino examples',
      assetsDir: 'assets',
      compositions: {
        'product-launch': 'compositions/product-launch.ts',
        'launch-spec': 'specs/launch.json',
      },
      fonts: [{ family: 'Brand', src: 'asset:fonts/Brand.ttf', weight: 700 }],
      media: {
        allowHosts: ['cdn.example.com', '*.example.org'],
        maxBytes: 1_000_000,
        timeoutMs: 5000,
        maxRedirects: 2,
      },
    });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.config.compositions?.['launch-spec']).toBe('specs/launch.json');
  });

  it('accepts an empty config: every field has a default', () => {
    expect(parseProjectConfig({})).toEqual({ ok: true, config: {} });
  });

  it('reports every problem at its JSON pointer with a message that says what to do', () => {
    const result = parseProjectConfig({
      compositions: {
        'Product Launch': 'a.ts',
        escape: '../outside.ts',
        text: 'notes.txt',
        rooted: '/abs/spec.json',
      },
      fonts: [{ family: 'Brand' }],
      media: { allowHosts: 'cdn.example.com', retries: 3 },
      colour: 'red',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byPointer = Object.fromEntries(result.issues.map((issue) => [issue.pointer, issue.message]));
    expect(byPointer['/compositions/Product Launch']).toMatch(/lower case letters, digits and "-"/);
    expect(byPointer['/compositions/escape']).toMatch(/inside the project folder/);
    expect(byPointer['/compositions/text']).toMatch(/\.ts\) or a spec \(\.json\)/);
    expect(byPointer['/compositions/rooted']).toMatch(/relative to the project folder/);
    expect(byPointer['/fonts/0/src']).toBeDefined();
    expect(byPointer['/media/allowHosts']).toBeDefined();
    expect(byPointer['/media/retries']).toBe('unknown field');
    expect(byPointer['/colour']).toBe('unknown field');
  });

  it('rejects an assets folder outside the project', () => {
    const result = parseProjectConfig({ assetsDir: 'media/../../shared' });
    expect(result).toEqual({
      ok: false,
      issues: [{ pointer: '/assetsDir', message: 'must stay inside the project folder (no "..")' }],
    });
  });

  it('limits keys to 64 characters', () => {
    expect(parseProjectConfig({ compositions: { ['a'.repeat(64)]: 'a.ts' } }).ok).toBe(true);
    expect(parseProjectConfig({ compositions: { ['a'.repeat(65)]: 'a.ts' } }).ok).toBe(false);
  });
});

describe('projectPathProblem', () => {
  it.each([
    ['specs/launch.json', undefined],
    ['./compositions/intro.ts', undefined],
    ['a..b/c.ts', undefined],
    ['../x.ts', 'must stay inside the project folder (no "..")'],
    ['specs/../../x.json', 'must stay inside the project folder (no "..")'],
    ['/etc/x.json', 'must be relative to the project folder'],
    ['C:/x.json', 'must be relative to the project folder'],
    ['C:x.json', 'must be relative to the project folder'],
    ['\\\\server\\x.json', 'must be relative to the project folder'],
    ['specs\\x.json', 'use "/" to separate folders'],
  ])('%s → %s', (path, problem) => {
    expect(projectPathProblem(path)).toBe(problem);
  });
});

describe('compositionEntryKind', () => {
  it('tells specs from code compositions by extension', () => {
    expect(compositionEntryKind('specs/launch.json')).toBe('spec');
    expect(compositionEntryKind('compositions/launch.ts')).toBe('composition');
  });
});

import { describe, expect, it } from 'vitest';
import { CodeElementSchema } from './code-element.ts';
import { MarkdownElementSchema } from './markdown-element.ts';

function issues(value: unknown): string[] {
  const result = CodeElementSchema.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('code element schema', () => {
  it('accepts shiki languages by id or alias, and its themes', () => {
    expect(issues({ type: 'code', code: 'x', language: 'ts', theme: 'one-dark-pro' })).toEqual([]);
    expect(issues({ type: 'code', code: 'x', language: 'Python', theme: 'github-light' })).toEqual([]);
    expect(issues({ type: 'code', code: 'x', language: 'txt' })).toEqual([]);
  });

  it('refuses an unknown language or theme, naming close ones', () => {
    const [language] = issues({ type: 'code', code: 'x', language: 'typescrpt' });
    expect(language).toMatch(
      /^language: "typescrpt" is not a language shiki bundles: did you mean .*"typescript"/,
    );
    const [theme] = issues({ type: 'code', code: 'x', theme: 'github-darkest' });
    expect(theme).toMatch(
      /^theme: "github-darkest" is not a theme shiki bundles: did you mean .*"github-dark"/,
    );
  });

  it('checks line references and step timing', () => {
    expect(issues({ type: 'code', code: 'x', highlight: ['7-5'] })[0]).toMatch(/first ≤ last/);
    expect(issues({ type: 'code', code: 'x', focus: ['a-b'] })[0]).toMatch(/a line range like "5-7"/);
    expect(issues({ type: 'code', code: 'x', steps: [{ code: 'y', at: 1 }, { code: 'z' }] })[0]).toMatch(
      /give "at" on every step or on none/,
    );
  });

  it('refuses a markdown code theme shiki does not have', () => {
    const result = MarkdownElementSchema.safeParse({ type: 'markdown', markdown: '# Hi', theme: 'nope' });
    expect(result.success).toBe(false);
  });
});

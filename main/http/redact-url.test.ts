import { describe, expect, it } from 'vitest';
import { describeParameterName, redactUrl } from './redact-url.ts';

const TOKEN = '1795561883.lJP2d2mv3CoAH1VZM1zg5myjc0yEbvgBU6FXPHgO7MA';

describe('redactUrl', () => {
  it('redacts the token in every spelling a query parser accepts', () => {
    for (const query of [
      `token=${TOKEN}`,
      `%74oken=${TOKEN}`,
      `token[]=${TOKEN}`,
      `token%3D${TOKEN}`,
      `Token=${TOKEN}`,
      `a=1&t%6Fken=${encodeURIComponent(TOKEN)}`,
      `other=${TOKEN}`,
    ]) {
      const logged = redactUrl(`/v1/files/rnd_1/video?${query}`);
      expect(logged, query).not.toContain(TOKEN.split('.')[1]!);
      expect(logged.startsWith('/v1/files/rnd_1/video?'), query).toBe(true);
    }
  });

  it('keeps plain parameters readable and a URL with no query as it is', () => {
    expect(redactUrl('/v1/renders?status=running&limit=5')).toBe('/v1/renders?status=running&limit=5');
    expect(redactUrl('/v1/renders')).toBe('/v1/renders');
    expect(redactUrl(`/x?token=${TOKEN}&limit=5`)).toBe('/x?token=[redacted]&limit=5');
  });
});

describe('describeParameterName', () => {
  it('shows a plain name and hides one that carries a value', () => {
    expect(describeParameterName('foo')).toBe('"foo"');
    expect(describeParameterName(`token=${TOKEN}`)).toBe('(name not shown)');
    expect(describeParameterName(TOKEN)).toBe('(name not shown)');
  });
});

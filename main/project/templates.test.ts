import { readFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProject } from './load.ts';
import { TemplateCatalog } from './templates.ts';
import { useTempDirs, write } from './test-files.fixture.ts';

const tempDir = useTempDirs('kino-templates-');

const PRICE_TAG = `import { scene, template, text, video } from 'kino';
export default template(
  { price: { type: 'number', default: 9.5, min: 0 }, label: { type: 'string', default: 'Now' } },
  // toFixed works on the real values a render gives; the catalog's stand-ins cannot do it.
  (v) => video({ title: 'Tag ' + v.price.toFixed(2) }, [scene({ duration: 1 }, [text(v.label)])]),
);
`;

const PLAIN = `import { scene, text, video } from 'kino';
export default video({}, [scene({ duration: 1 }, [text('Plain')])]);
`;

async function project(files: Record<string, string>, compositions: Record<string, string>) {
  const dir = await tempDir();
  for (const [name, text] of Object.entries(files)) await write(path.join(dir, name), text);
  await write(path.join(dir, 'kino.json'), JSON.stringify({ compositions }));
  return { dir, load: () => loadProject(dir) };
}

const SPEC_TEMPLATE = JSON.stringify({
  kinoSpec: 1,
  title: 'Card {{who}}',
  variables: { who: { type: 'string' } },
  scenes: [{ duration: 1, elements: [{ type: 'text', text: '{{who}}' }] }],
});

describe.each([true, false])('TemplateCatalog (isolate: %s)', (isolate) => {
  it('lists spec and code templates with their variables, and names keys it cannot read', async () => {
    const { load } = await project(
      {
        'card.json': SPEC_TEMPLATE,
        'tag.ts': PRICE_TAG,
        'plain.ts': PLAIN,
        'broken.ts': `import { video } from 'kino';\nexport default video({}, [notDefined()]);\n`,
      },
      { card: 'card.json', tag: 'tag.ts', plain: 'plain.ts', broken: 'broken.ts' },
    );
    const listing = await new TemplateCatalog({ isolate }).list(await load());
    expect(listing.templates).toEqual([
      { key: 'card', kind: 'spec', title: 'Card {{who}}', variables: { who: { type: 'string' } } },
      {
        key: 'tag',
        kind: 'composition',
        variables: {
          price: { type: 'number', default: 9.5, min: 0 },
          label: { type: 'string', default: 'Now' },
        },
      },
    ]);
    expect(listing.failures).toEqual([{ key: 'broken', message: expect.stringContaining('notDefined') }]);
  });

  it('reads a key again when its file changes', async () => {
    const { dir, load } = await project({ 'card.json': SPEC_TEMPLATE }, { card: 'card.json' });
    const catalog = new TemplateCatalog({ isolate });
    const file = path.join(dir, 'card.json');
    expect(Object.keys((await catalog.declarations(file)).variables!)).toEqual(['who']);
    const changed = JSON.parse(await readFile(file, 'utf8')) as { variables: Record<string, unknown> };
    changed.variables.when = { type: 'string', default: 'today' };
    await write(file, JSON.stringify(changed));
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    expect(Object.keys((await catalog.declarations(file)).variables!)).toEqual(['who', 'when']);
    expect((await catalog.list(await load())).templates).toHaveLength(1);
  });
});

describe('TemplateCatalog in a worker process', () => {
  it('stops the worker once it has answered, even when a composition leaves a timer running', async () => {
    const pidFile = path.join(await tempDir(), 'pid');
    const lingering = `import { scene, template, text, video } from 'kino';
import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
setInterval(() => {}, 1000);
export default template({ who: { type: 'string', default: 'A' } }, (v) => video({}, [scene({ duration: 1 }, [text(v.who)])]));
`;
    const { load } = await project({ 'linger.ts': lingering }, { linger: 'linger.ts' });
    const listing = await new TemplateCatalog({ isolate: true }).list(await load());
    expect(listing.templates.map((t) => t.key)).toEqual(['linger']);
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(pid).not.toBe(process.pid);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive()).toBe(false);
  });

  it('does not let the composition read the server secrets', async () => {
    const seenFile = path.join(await tempDir(), 'seen');
    const snooping = `import { scene, template, text, video } from 'kino';
import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(seenFile)}, String(process.env.API_TOKEN));
export default template({ who: { type: 'string', default: 'A' } }, (v) => video({}, [scene({ duration: 1 }, [text(v.who)])]));
`;
    const { load } = await project({ 'snoop.ts': snooping }, { snoop: 'snoop.ts' });
    const saved = process.env.API_TOKEN;
    process.env.API_TOKEN = 'secret-token-for-the-test';
    try {
      await new TemplateCatalog({ isolate: true }).list(await load());
    } finally {
      if (saved === undefined) delete process.env.API_TOKEN;
      else process.env.API_TOKEN = saved;
    }
    expect(await readFile(seenFile, 'utf8')).toBe('undefined');
  });
});

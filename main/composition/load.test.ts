import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomElement } from '../../shared/spec/model.ts';
import { SpecValidationError } from '../../shared/spec/validate.ts';
import { VariableBindingError } from '../../shared/spec/variables.ts';
import { CompositionLoadError, LoadedComposition, loadComposition } from './load.ts';

let dir: string;
let outDir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kino-load-test-'));
  outDir = path.join(dir, 'out');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, lines: string[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

const load = (file: string) => loadComposition(file, { outDir });

describe('loadComposition', () => {
  it('returns the validated model with working custom draw functions', async () => {
    const file = await write('custom.ts', [
      "import { custom, fadeIn, scene, text, video } from 'kino';",
      "const bar = custom({ width: '50%', height: '20%' }, (ctx, info) => {",
      "  ctx.fillStyle = '#ff0000';",
      '  ctx.fillRect(0, 0, info.width * info.progress, info.height);',
      '});',
      'export default video({ fps: 24 }, [',
      "  scene({ duration: '2s' }, [text('Revenue').animate(fadeIn()), bar]),",
      ']);',
    ]);
    const model = await load(file);
    expect(model.fps).toBe(24);
    const [label, bar] = model.scenes[0]!.elements!;
    expect(label).toEqual({ type: 'text', text: 'Revenue', animate: [{ preset: 'fadeIn' }] });

    // The draw function survives compile, import and validation: run it on a real Skia canvas.
    const canvas = createCanvas(100, 40);
    const ctx = canvas.getContext('2d');
    const info = { width: 100, height: 40, frame: 12, fps: 24, time: 0.5, duration: 2, progress: 0.5 };
    (bar as CustomElement).draw(ctx as unknown as CanvasRenderingContext2D, info);
    const pixel = (x: number) => [...ctx.getImageData(x, 20, 1, 1).data];
    expect(pixel(25)).toEqual([255, 0, 0, 255]);
    expect(pixel(75)).toEqual([0, 0, 0, 0]);
  });

  it('re-imports a changed source and leaves no bundle behind', async () => {
    const source = (title: string) => [
      "import { scene, text, video } from 'kino';",
      `export default video({ title: '${title}' }, [scene({ duration: 1 })]);`,
    ];
    const file = await write('changing.ts', source('first'));
    expect((await load(file)).title).toBe('first');
    await write('changing.ts', source('second'));
    expect((await load(file)).title).toBe('second');
    expect(await readdir(outDir)).toEqual([]);
  });

  it('accepts a default export that is a function or an async function', async () => {
    const sync = await write('sync.ts', [
      "import { scene, video } from 'kino';",
      'export default () => video({ fps: 60 }, [scene({ duration: 1 })]);',
    ]);
    const asynchronous = await write('async.ts', [
      "import { scene, video } from 'kino';",
      'export default async () => {',
      '  const seconds = await Promise.resolve(3);',
      '  return video({}, [scene({ duration: seconds })]);',
      '};',
    ]);
    expect((await load(sync)).fps).toBe(60);
    expect((await load(asynchronous)).scenes[0]!.duration).toBe(3);
  });

  it('says what to do when there is no default export', async () => {
    const file = await write('no-default.ts', [
      "import { scene, video } from 'kino';",
      'export const v = video({}, [scene({ duration: 1 })]);',
    ]);
    const error = await load(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompositionLoadError);
    expect((error as Error).message).toBe(
      `${file}: no default export: end the file with \`export default video({...}, [scene(...)])\``,
    );
  });

  it('reports an invalid model with JSON pointers', async () => {
    const file = await write('invalid.ts', [
      "import { custom, rect, scene, text, video } from 'kino';",
      'export default video({ fps: 500 }, [',
      "  scene({ duration: '2 seconds' }, [custom(() => {}), text('a', { opacity: 2 }), rect({ colour: 'red' } as never)]),",
      ']);',
    ]);
    const error = (await load(file).catch((e: unknown) => e)) as SpecValidationError;
    expect(error).toBeInstanceOf(SpecValidationError);
    expect(error.issues.map((issue) => issue.pointer).sort()).toEqual([
      '/fps',
      '/scenes/0/duration',
      '/scenes/0/elements/1/opacity',
      '/scenes/0/elements/2/colour',
    ]);
  });

  it('points a failure while running at the composition source line', async () => {
    const file = await write('throws.ts', [
      "import { scene, text, video } from 'kino';",
      'function makeTitle(): string {',
      "  throw new Error('no data for the chart');",
      '}',
      'export default video({}, [scene({ duration: 1 }, [text(makeTitle())])]);',
    ]);
    const error = (await load(file).catch((e: unknown) => e)) as CompositionLoadError;
    expect(error).toBeInstanceOf(CompositionLoadError);
    expect(error.message).toBe(`${file}: failed while loading: Error: no data for the chart`);
    expect((error.cause as Error).stack).toContain(`${path.basename(file)}:3:`);
  });

  it('wraps an error thrown by a default-export function', async () => {
    const file = await write('throws-later.ts', [
      'export default async () => {',
      "  throw new TypeError('bad props');",
      '};',
    ]);
    await expect(load(file)).rejects.toThrow(`${file}: the default export failed: TypeError: bad props`);
  });
});

describe('LoadedComposition of a JSON spec', () => {
  const TEMPLATE = {
    kinoSpec: 1,
    variables: { who: { type: 'string', default: 'Ada', maxLength: 8 } },
    scenes: [{ duration: '1s', elements: [{ type: 'text', text: 'Hi {{who}}' }] }],
  };

  it('binds each mount to its values, as a render of the spec would', async () => {
    const file = path.join(dir, 'greeting.json');
    await writeFile(file, JSON.stringify(TEMPLATE));
    const loaded = await LoadedComposition.load(file, { outDir });
    expect(loaded.modules).toEqual([]);
    const text = (model: Awaited<ReturnType<typeof loaded.mount>>) =>
      (model.scenes[0]!.elements![0] as { text: string }).text;
    expect(text(await loaded.mount())).toBe('Hi Ada');
    expect(text(await loaded.mount({ who: 'Grace' }))).toBe('Hi Grace');
    await expect(loaded.mount({ who: 'Grace Hopper' })).rejects.toThrow(
      'variable "who" (string): must be at most 8 characters',
    );
    await expect(loaded.mount({ who: 'Grace Hopper' })).rejects.toBeInstanceOf(VariableBindingError);
  });

  it('refuses an invalid spec with the pointer of each issue', async () => {
    const file = path.join(dir, 'broken.json');
    const broken = structuredClone(TEMPLATE) as { scenes: { elements: Record<string, unknown>[] }[] };
    broken.scenes[0]!.elements[0]!.size = 'huge';
    await writeFile(file, JSON.stringify(broken));
    const error = await (
      await LoadedComposition.load(file, { outDir })
    )
      .mount()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SpecValidationError);
    expect((error as SpecValidationError).issues.map((issue) => issue.pointer)).toContain(
      '/scenes/0/elements/0/size',
    );
  });
});

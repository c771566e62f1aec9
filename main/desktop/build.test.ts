import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDesktop, requiredModules } from './build.ts';

let dir: string;
let out: { main: string; preload: string };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kino-desktop-build-'));
  out = await buildDesktop(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('buildDesktop', () => {
  it('bundles the preload into CommonJS that requires only electron', async () => {
    const code = await readFile(out.preload, 'utf8');
    expect(requiredModules(code)).toEqual(['electron']);
    expect(code).toContain('kinoDesktop');
    expect(code).toContain('kino:open-file');
  });

  it('keeps the main entry tiny: it imports the sources instead of bundling them', async () => {
    const code = await readFile(out.main, 'utf8');
    const imports = [...code.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]).sort();
    expect(imports).toEqual(['electron', 'node:path', 'node:url']);
    expect(code).toContain('electron-main.ts');
    expect(code.length).toBeLessThan(4000);
  });

  it('finds require() calls', () => {
    expect(requiredModules('a=require("electron");b=require( \'fs\' )')).toEqual(['electron', 'fs']);
  });
});

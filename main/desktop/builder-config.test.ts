// Checks electron-builder.yml without packaging: valid by electron-builder's own JSON schema, the
// targets and ffmpeg resources the desktop issue asks for, and `files` covering every source file
// the app loads at run time (a file left out breaks only the installed app, which CI never runs).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { packagedToolEnv } from './resources.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
// js-yaml is electron-builder's own YAML parser (a dependency of app-builder-lib).
const yaml = require('js-yaml') as { load(text: string): unknown };

interface FileSet {
  from: string;
  to: string;
  filter: string[];
}
interface TargetConfig {
  target: string;
  arch: string[];
}
interface PlatformConfig {
  target: TargetConfig[];
  extraResources: FileSet[];
}
interface BuilderConfig {
  appId: string;
  productName: string;
  asar: boolean;
  files: string[];
  electronFuses: Record<string, boolean>;
  mac: PlatformConfig;
  win: PlatformConfig;
  linux: PlatformConfig;
}

const config = yaml.load(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const PLATFORMS = { darwin: 'mac', win32: 'win', linux: 'linux' } as const;

function targets(platform: PlatformConfig): Record<string, string[]> {
  return Object.fromEntries(platform.target.map((t) => [t.target, [...t.arch].sort()]));
}

/** Whether electron-builder's `files` would take `file` (relative, "/"-separated): last match wins. */
function packaged(file: string): boolean {
  let included = false;
  for (const pattern of config.files) {
    if (pattern.startsWith('!')) {
      if (path.posix.matchesGlob(file, pattern.slice(1))) included = false;
    } else if (path.posix.matchesGlob(file, pattern)) {
      included = true;
    }
  }
  return included;
}

describe('electron-builder.yml', () => {
  const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as object;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

  it("is valid by electron-builder's schema", () => {
    const valid = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('would catch a misspelt option (the schema is strict)', () => {
    expect(validate({ ...config, linux: { ...config.linux, catgory: 'Video' } })).toBe(false);
    expect(validate({ ...config, asarr: false })).toBe(false);
  });

  it('names the app and builds a dmg (arm64, x64), an NSIS installer, an AppImage and a deb', () => {
    expect(config).toMatchObject({ appId: 'dev.kino.studio', productName: 'Kino' });
    expect(targets(config.mac)).toEqual({ dmg: ['arm64', 'x64'] });
    expect(targets(config.win)).toEqual({ nsis: ['x64'] });
    expect(targets(config.linux)).toEqual({ AppImage: ['x64'], deb: ['x64'] });
  });

  it('keeps the fork-as-Node fuse the workers need', () => {
    expect(config.electronFuses.runAsNode).toBe(true);
  });

  describe.each(Object.entries(PLATFORMS))('%s resources', (platform, key) => {
    const resources = config[key].extraResources;
    const arches = [...new Set(config[key].target.flatMap((t) => t.arch))];

    it('ship ffmpeg and ffprobe from the platform packages where packagedToolEnv looks', () => {
      const expected = packagedToolEnv({}, '/resources', platform as NodeJS.Platform);
      for (const [tool, variable] of [
        ['ffmpeg', 'FFMPEG_PATH'],
        ['ffprobe', 'FFPROBE_PATH'],
      ] as const) {
        const set = resources.find((r) => r.from === `node_modules/@${tool}-installer/${platform}-\${arch}`);
        expect(set, `${tool} for ${platform}`).toBeDefined();
        const binary = `${tool}${platform === 'win32' ? '.exe' : ''}`;
        expect(set!.filter).toEqual([binary]);
        expect(path.posix.join('/resources', set!.to, binary)).toBe(
          expected[variable]!.replaceAll('\\', '/'),
        );
      }
    });

    it("ship ffmpeg's licence notice and the GPL's text beside the binaries", () => {
      const notice = resources.find((r) => r.filter.includes('ffmpeg-LICENSE.md'));
      expect(notice, `licence notice for ${platform}`).toBeDefined();
      expect(notice!.to).toBe('ffmpeg');
      expect([...notice!.filter].sort()).toEqual(['ffmpeg-GPL-3.txt', 'ffmpeg-LICENSE.md']);
      for (const name of notice!.filter)
        expect(existsSync(path.join(ROOT, notice!.from, name)), name).toBe(true);
      const text = readFileSync(path.join(ROOT, notice!.from, 'ffmpeg-LICENSE.md'), 'utf8');
      // It names the build of every packaged binary and where its source is.
      for (const set of resources.filter((r) => r.from.includes('-installer/'))) {
        const pkg = set.from.replace('node_modules/', '').replace('${arch}', '');
        expect(text, pkg).toContain(pkg);
      }
      expect(text).toMatch(/GNU General Public License version 3 or later/);
      expect(text).toContain('https://git.ffmpeg.org/ffmpeg.git');
      expect(readFileSync(path.join(ROOT, notice!.from, 'ffmpeg-GPL-3.txt'), 'utf8')).toMatch(
        /GNU GENERAL PUBLIC LICENSE\s+Version 3, 29 June 2007/,
      );
    });

    it('come from packages the installers really publish for every target arch', () => {
      for (const tool of ['ffmpeg', 'ffprobe']) {
        const manifest = JSON.parse(
          readFileSync(path.join(ROOT, 'node_modules', `@${tool}-installer`, tool, 'package.json'), 'utf8'),
        ) as { optionalDependencies: Record<string, string> };
        for (const arch of arches) {
          expect(Object.keys(manifest.optionalDependencies)).toContain(
            `@${tool}-installer/${platform}-${arch}`,
          );
        }
      }
    });

    it.runIf(platform === process.platform)('exist on disk for this machine', () => {
      for (const set of resources) {
        const from = path.join(ROOT, set.from.replace('${arch}', process.arch));
        expect(existsSync(from), from).toBe(true);
        for (const name of set.filter) expect(existsSync(path.join(from, name)), name).toBe(true);
      }
    });
  });

  describe('files', () => {
    let runtimeSources: string[];

    beforeAll(async () => {
      // Forked workers and files read by path are loaded through new URL(...), which a bundler does
      // not follow: they are entry points here.
      const entries = [
        'main/desktop/electron-main.ts',
        'main/workspace/composition-process-entry.mjs',
        'main/jobs/render-job-entry.mjs',
        'main/mcp/look-process-entry.mjs',
        'main/project/template-declarations-entry.mjs',
        'shared/builder/index.ts',
        'shared/studio/type-library.ts',
        'renderer/player/page.ts',
      ];
      const result = await build({
        entryPoints: entries.map((entry) => path.join(ROOT, entry)),
        absWorkingDir: ROOT,
        bundle: true,
        write: false,
        outdir: path.join(ROOT, 'dist', 'metafile-only'),
        platform: 'node',
        format: 'esm',
        packages: 'external',
        external: ['electron'],
        metafile: true,
        logLevel: 'silent',
      });
      runtimeSources = Object.keys(result.metafile.inputs).filter((input) => !input.includes(':'));
    });

    it('packs every source file the app and its workers load', () => {
      expect(runtimeSources.length).toBeGreaterThan(100);
      expect(runtimeSources.filter((file) => !packaged(file))).toEqual([]);
    });

    it('packs the entry, the preload, the UI and the examples, but no tests', () => {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { main?: string };
      for (const file of [
        manifest.main ?? 'missing "main" in package.json',
        'dist/desktop/preload.cjs',
        'dist/renderer/index.html',
        'examples/kino.json',
        'examples/compositions/brand-intro.ts',
        'examples/assets/logo.png',
        'package.json',
      ]) {
        expect(packaged(file), file).toBe(true);
      }
      for (const file of ['main/desktop/security.test.ts', 'renderer/studio/main.tsx', 'e2e/cli.test.ts']) {
        expect(packaged(file), file).toBe(false);
      }
    });

    it('is unpacked (no asar): esbuild and the forked workers need real files', () => {
      expect(config.asar).toBe(false);
    });
  });
});

// A throwaway render project for the preview tests: kino.json, an assets folder with the examples'
// logo, a small composition, and a secret file beside the project that media must never reach.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXAMPLE_LOGO = fileURLToPath(new URL('../../examples/assets/logo.png', import.meta.url));

export const SMALL_COMPOSITION = `import { image, rect, scene, text, video } from 'kino';
import { accent } from './palette.ts';

export default video({ title: 'Preview test', fps: 30, aspect: 'square' }, [
  scene({ duration: '2s', background: '#123456' }, [
    rect({ width: '60%', height: '20%', y: 0.25, radius: 24, fill: accent }),
    text('Hello preview', { y: 0.55, font: 'display', size: 120, color: '#ffffff' }),
    image('asset:logo.png', { y: 0.8, width: 200, height: 200, fit: 'contain' }),
  ]),
]);
`;

export interface TestProject {
  /** Holds the project folder and the secret beside it. */
  base: string;
  root: string;
  composition: string;
  palette: string;
  cleanup(): void;
}

export function makeTestProject(source = SMALL_COMPOSITION): TestProject {
  const base = mkdtempSync(join(tmpdir(), 'kino-preview-'));
  const root = join(base, 'project');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'kino.json'), JSON.stringify({ name: 'preview test', assetsDir: 'assets' }));
  copyFileSync(EXAMPLE_LOGO, join(root, 'assets', 'logo.png'));
  writeFileSync(join(base, 'secret.txt'), 'not for the browser\n');
  const palette = join(root, 'palette.ts');
  writeFileSync(palette, "export const accent = '#f59e0b';\n");
  const composition = join(root, 'comp.ts');
  writeFileSync(composition, source);
  return { base, root, composition, palette, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cssFontFamilies, FALLBACK_CHAIN } from '../../shared/fonts/fonts.ts';
import { bundledFontFiles } from './bundled.ts';
import { drawStrip, hashPixels, stripHashes, systemFontCount } from './glyph-strip.fixture.ts';
import type { StripHashes } from './glyph-strip.fixture.ts';

const display = (text: string) => drawStrip(`400 72px ${cssFontFamilies(['Kino Display'])}`, text);
const alone = (family: string, text: string) => drawStrip(`400 72px "${family}"`, text);

function ink(pixels: Uint8ClampedArray): number {
  let sum = 0;
  for (let i = 3; i < pixels.length; i += 4) sum += pixels[i]!;
  return sum / 255;
}

/** Pixels whose colour is far from grey: white text drawn in colour means a colour font drew it. */
function colourful(pixels: Uint8ClampedArray): number {
  let count = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const [r, g, b, a] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, pixels[i + 3]!];
    if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 60) count++;
  }
  return count;
}

describe('the fallback chain', () => {
  it('ships its faces as installed files: Twemoji (woff2) and DejaVu Sans in four styles', () => {
    const fallback = bundledFontFiles().filter((file) => FALLBACK_CHAIN.includes(file.alias));
    expect(
      fallback.map((file) => `${file.alias} ${file.weight}${file.italic ? 'i' : ''} ${file.format}`),
    ).toEqual([
      'Kino Emoji 400 woff2',
      'Kino Symbols 400 truetype',
      'Kino Symbols 400i truetype',
      'Kino Symbols 700 truetype',
      'Kino Symbols 700i truetype',
    ]);
    expect(fallback[0]!.path).toMatch(/twemoji-colr-font\/twemoji\.woff2$/);
    expect(fallback[1]!.path).toMatch(/dejavu-fonts-ttf\/ttf\/DejaVuSans\.ttf$/);
  });

  it('draws ★ ✓ → in display text with the symbols face, where Bebas Neue alone draws its box', () => {
    for (const char of ['★', '✓', '→']) {
      const drawn = display(char);
      expect(hashPixels(drawn), char).toBe(hashPixels(alone('Kino Symbols', char)));
      expect(hashPixels(drawn), char).not.toBe(hashPixels(alone('Kino Display', char)));
      expect(ink(drawn), char).toBeGreaterThan(200);
    }
  });

  it('draws an emoji in colour with the emoji face', () => {
    const drawn = display('🎉');
    expect(hashPixels(drawn)).toBe(hashPixels(alone('Kino Emoji', '🎉')));
    // The fill is white: only a colour font puts colour on the canvas.
    expect(colourful(drawn)).toBeGreaterThan(500);
    expect(colourful(display('★'))).toBe(0);
  });

  it("keeps the element's own face for the characters it has", () => {
    expect(hashPixels(display('4.8'))).toBe(hashPixels(alone('Kino Display', '4.8')));
  });
});

const strip = fileURLToPath(new URL('./glyph-strip.fixture.ts', import.meta.url));

/** The strip's hashes from a fresh process; with `hideSystemFonts`, Debian's font folder is empty there. */
function hashesInProcess(hideSystemFonts: boolean): StripHashes {
  const node = [process.execPath, strip];
  // A private mount namespace: an empty tmpfs over /usr/share/fonts for this process alone.
  const command = hideSystemFonts
    ? [
        'unshare',
        '-m',
        '--propagation',
        'private',
        'sh',
        '-c',
        'mount -t tmpfs none /usr/share/fonts && exec "$@"',
        'sh',
        ...node,
      ]
    : node;
  const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`strip process failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as StripHashes;
}

const canHideSystemFonts =
  spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs none /usr/share/fonts'])
    .status === 0;

describe('the same pixels with and without the machine fonts', () => {
  it.skipIf(!canHideSystemFonts)(
    'draws the chain identically when /usr/share/fonts is hidden, unlike an unregistered family',
    () => {
      const withSystem = hashesInProcess(false);
      const without = hashesInProcess(true);
      expect(without.systemFonts).toBe(0);
      expect(without.display).toBe(withSystem.display);
      expect(without.sans).toBe(withSystem.sans);
      expect(withSystem.display).toBe(stripHashes().display);
      // The control: with fonts installed, a family nobody registered is drawn in one of them.
      if (withSystem.systemFonts > 0) expect(without.unregistered).not.toBe(withSystem.unregistered);
    },
  );

  it('counts the machine font files Skia would read', () => {
    expect(systemFontCount('/nowhere')).toBe(0);
  });
});

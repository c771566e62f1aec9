// RGBA → yuv420p (BT.709, limited range) in plain TypeScript, reproducing byte for byte what ffmpeg
// 5.1 on x86-64 makes of Kino's filter
//   scale=flags=bilinear+full_chroma_inp:out_color_matrix=bt709:out_range=tv,format=yuv420p
// It is the definition the SIMD kernel (yuv420p.wat) is tested against: about 16 ms of CPU a
// 1080×1920 frame, far too slow to replace ffmpeg's own ≈ 2.3 ms, so it never runs in a render.
//
// How swscale computes it (libswscale, read and checked against the machine's ffmpeg):
// - Coefficients: fill_rgb2yuv_table from ff_yuv2rgb_coeffs[BT709] = {117489, 138438, 13975, 34925},
//   tv range, RGB2YUV_SHIFT 15. Alpha is ignored (ffmpeg drops it; straight RGB is converted).
// - Luma: 14-bit (…+ (16<<15) + 256) >> 9, a 1-tap scale to 15 bits, then yuv2plane1 (+64 >> 7).
// - Chroma (full_chroma_inp): U and V per pixel in 14 bits, then the bilinear 2:1 filter in both
//   directions. With swscale's default centred siting it is [1 3 3 1]/8, edges replicated
//   (initFilter folds off-edge taps into the edge tap): horizontally 14-bit taps 2048/6144, >> 13;
//   vertically 12-bit taps 512/1536.
// - Vertical rounding: on x86 without accurate_rnd, yuv2yuvX (SSE3/AVX2) truncates each tap
//   (pmulhw: floor(src*coef/65536)), starts from (64 + 8*(taps-1)) >> 4 = 5 and shifts >> 3; taps on
//   the same replicated row are one folded coefficient. The last chroma row uses the C output
//   function, (Σ src*coef + (1<<18)) >> 19, as does every row with 'c' rounding (+accurate_rnd,
//   +bitexact, or CPUs without the x86 path).
// Width and height must be even and at least 8: swscale shortens the filter below that.

export type Yuv420pRounding = 'x86' | 'c';

const RY = 5983;
const GY = 20127;
const BY = 2032;
const RU = -3298;
const GU = -11094;
const BU = 14392;
const RV = 14392;
const GV = -13073;
const BV = -1320;

/** Bytes of a yuv420p frame: the Y plane, then U and V at half width and height. */
export function yuv420pBytes(width: number, height: number): number {
  return width * height + 2 * (width >> 1) * (height >> 1);
}

/** Whether a frame size has the exact conversion: even sides of at least 8 pixels. */
export function yuv420pSizeSupported(width: number, height: number): boolean {
  return (
    Number.isInteger(width) &&
    Number.isInteger(height) &&
    width >= 8 &&
    height >= 8 &&
    width % 2 === 0 &&
    height % 2 === 0
  );
}

const clip = (n: number) => (n < 0 ? 0 : n > 255 ? 255 : n);

/** Writes the Y, U and V planes of `rgba` (straight RGBA, width*height*4 bytes) into `out`. */
export function rgbaToYuv420pReference(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  out: Uint8Array = new Uint8Array(yuv420pBytes(width, height)),
  rounding: Yuv420pRounding = 'x86',
): Uint8Array {
  if (!yuv420pSizeSupported(width, height)) {
    throw new Error(`yuv420p conversion needs even sides of at least 8 pixels, got ${width}×${height}.`);
  }
  const w = width;
  const h = height;
  const cw = w >> 1;
  const ch = h >> 1;
  const ySize = w * h;
  const cSize = cw * ch;
  // U and V after the horizontal filter (15 bits), every row.
  const hU = new Int32Array(cw * h);
  const hV = new Int32Array(cw * h);
  const rowU = new Int32Array(w);
  const rowV = new Int32Array(w);
  for (let y = 0; y < h; y++) {
    let p = y * w * 4;
    const o = y * w;
    for (let x = 0; x < w; x++, p += 4) {
      const r = rgba[p]!;
      const g = rgba[p + 1]!;
      const b = rgba[p + 2]!;
      out[o + x] = (2 * ((RY * r + GY * g + BY * b + (16 << 15) + 256) >> 9) + 64) >> 7;
      rowU[x] = (RU * r + GU * g + BU * b + (128 << 15) + 256) >> 9;
      rowV[x] = (RV * r + GV * g + BV * b + (128 << 15) + 256) >> 9;
    }
    const base = y * cw;
    for (let x = 0; x < cw; x++) {
      const a = x === 0 ? 0 : 2 * x - 1;
      const d = x === cw - 1 ? w - 1 : 2 * x + 2;
      const u = (2048 * (rowU[a]! + rowU[d]!) + 6144 * (rowU[2 * x]! + rowU[2 * x + 1]!)) >> 13;
      const v = (2048 * (rowV[a]! + rowV[d]!) + 6144 * (rowV[2 * x]! + rowV[2 * x + 1]!)) >> 13;
      hU[base + x] = Math.min(u, 32767);
      hV[base + x] = Math.min(v, 32767);
    }
  }
  for (let y = 0; y < ch; y++) {
    const rows = [y === 0 ? 0 : 2 * y - 1, 2 * y, 2 * y + 1, y === ch - 1 ? h - 1 : 2 * y + 2];
    const oU = ySize + y * cw;
    const oV = ySize + cSize + y * cw;
    if (rounding === 'c' || y === ch - 1) {
      const [r0, r1, r2, r3] = rows.map((r) => r * cw) as [number, number, number, number];
      for (let x = 0; x < cw; x++) {
        const u = 512 * (hU[r0 + x]! + hU[r3 + x]!) + 1536 * (hU[r1 + x]! + hU[r2 + x]!);
        const v = 512 * (hV[r0 + x]! + hV[r3 + x]!) + 1536 * (hV[r1 + x]! + hV[r2 + x]!);
        out[oU + x] = clip((u + (1 << 18)) >> 19);
        out[oV + x] = clip((v + (1 << 18)) >> 19);
      }
      continue;
    }
    const taps = new Map<number, number>();
    [512, 1536, 1536, 512].forEach((c, k) => taps.set(rows[k]!, (taps.get(rows[k]!) ?? 0) + c));
    const list = [...taps].map(([r, c]) => [r * cw, c] as const);
    for (let x = 0; x < cw; x++) {
      let u = 5;
      let v = 5;
      for (const [r, c] of list) {
        u += (hU[r + x]! * c) >> 16;
        v += (hV[r + x]! * c) >> 16;
      }
      out[oU + x] = clip(u >> 3);
      out[oV + x] = clip(v >> 3);
    }
  }
  return out;
}

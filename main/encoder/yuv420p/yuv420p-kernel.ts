// RGBA → yuv420p with the SIMD WebAssembly kernel (yuv420p.wat): the same bytes as
// yuv420p-reference.ts, about ten times faster. One converter per thread, reused frame after frame:
// its memory grows to the largest frame it has converted and stays.
import { YUV420P_KERNEL_BASE64 } from './yuv420p-kernel.generated.ts';
import { yuv420pBytes, yuv420pSizeSupported } from './yuv420p-reference.ts';

interface KernelExports {
  memory: WebAssembly.Memory;
  scratchBytes(width: number): number;
  convert(src: number, dst: number, scratch: number, width: number, height: number): void;
}

let compiled: WebAssembly.Module | undefined;

/** Compiled synchronously (it is small), once per thread, so a thread's first frame does not wait. */
function kernelModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(Buffer.from(YUV420P_KERNEL_BASE64, 'base64'));
  return compiled;
}

const align16 = (n: number) => (n + 15) & ~15;

export class Yuv420pConverter {
  readonly #kernel: KernelExports;

  constructor() {
    this.#kernel = new WebAssembly.Instance(kernelModule()).exports as unknown as KernelExports;
  }

  /**
   * Writes the yuv420p planes of `rgba` (straight RGBA, width×height) into `out`, which holds exactly
   * yuv420pBytes(width, height). Width and height must be even and at least 8.
   */
  convert(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, out: Uint8Array): Uint8Array {
    if (!yuv420pSizeSupported(width, height)) {
      throw new Error(`yuv420p conversion needs even sides of at least 8 pixels, got ${width}×${height}.`);
    }
    const rgbaBytes = width * height * 4;
    const yuvBytes = yuv420pBytes(width, height);
    if (rgba.byteLength !== rgbaBytes) {
      throw new Error(`a ${width}×${height} RGBA frame has ${rgbaBytes} bytes, got ${rgba.byteLength}.`);
    }
    if (out.byteLength !== yuvBytes) {
      throw new Error(`a ${width}×${height} yuv420p frame has ${yuvBytes} bytes, got ${out.byteLength}.`);
    }
    // Working rows, then the RGBA, then the planes (the kernel may write up to 16 bytes past them).
    const src = align16(this.#kernel.scratchBytes(width));
    const dst = align16(src + rgbaBytes);
    const end = dst + yuvBytes + 16;
    const memory = this.#kernel.memory;
    if (memory.buffer.byteLength < end) memory.grow(Math.ceil((end - memory.buffer.byteLength) / 65536));
    const heap = new Uint8Array(memory.buffer);
    heap.set(rgba, src);
    this.#kernel.convert(src, dst, 0, width, height);
    out.set(heap.subarray(dst, dst + yuvBytes));
    return out;
  }
}

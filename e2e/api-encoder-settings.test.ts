// options.encoder on POST /v1/renders, against a real `kino serve`: refused values are RFC 9457
// problems at their pointers (400 out of bounds or not for the format, 422 a hardware encoder that
// cannot run here); accepted ones are in the job's options and the receipt records what was used.
import { describe, expect, it } from 'vitest';
import { hardwareEncoderProblem } from '../main/encoder/encoder-settings.ts';
import { TINY_SPEC, readAnswer, useApiServers, waitForRender } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

const { start } = useApiServers({ RATE_LIMIT: '0' });

async function post(api: RunningApi, options: Record<string, unknown>) {
  return readAnswer(await api.api('/v1/renders', { method: 'POST', json: { spec: TINY_SPEC, options } }));
}

describe('POST /v1/renders with options.encoder', () => {
  it('answers problem+json at the pointer of each refused setting', async () => {
    const api = await start();

    const gif = await post(api, { format: 'gif', encoder: { crf: 20, audioBitrate: '128k' } });
    expect(gif.status).toBe(400);
    expect(gif.headers.get('content-type')).toContain('application/problem+json');
    expect(gif.body).toMatchObject({
      status: 400,
      code: 'validation_failed',
      errors: [
        {
          pointer: '/options/encoder/crf',
          message: 'gif has no CRF: crf applies to mp4 (libx264, 0–51) and transparent (VP9, 0–63)',
        },
        { pointer: '/options/encoder/audioBitrate', message: 'gif has no audio' },
      ],
    });

    const tooHigh = await post(api, { encoder: { crf: 52 } });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.errors).toEqual([
      {
        pointer: '/options/encoder/crf',
        message: 'crf for mp4 (libx264) must be a whole number from 0 to 51, got 52',
      },
    ]);

    // Out of the schema's own bounds: refused by validation before any rule of ours runs.
    const schema = await post(api, {
      encoder: { crf: 80, audioBitrate: '96', preset: 'placebo', tune: 'film' },
    });
    expect(schema.status).toBe(400);
    expect(schema.body.code).toBe('validation_failed');
    const pointers = (schema.body.errors as { pointer: string }[]).map((error) => error.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/options/encoder/crf',
        '/options/encoder/audioBitrate',
        '/options/encoder/preset',
        '/options/encoder/tune',
      ]),
    );
    expect(schema.body.errors).toContainEqual({
      pointer: '/options/encoder/audioBitrate',
      message: 'expected 64k to 320k in whole kbit/s, like "96k"',
    });

    // Each output is checked against its own format, with options.encoder unless it has its own.
    const outputs = await post(api, {
      encoder: { pixelFormat: 'yuv444p' },
      outputs: [
        { format: 'mp4' },
        { format: 'transparent', encoder: { crf: 40, preset: 'fast' } },
        { format: 'mov' },
      ],
    });
    expect(outputs.status).toBe(400);
    expect(outputs.body.errors).toEqual([
      {
        pointer: '/options/outputs/1/encoder/preset',
        message: 'preset is an x264 setting, for mp4 only; not for transparent (output format transparent)',
      },
      {
        pointer: '/options/encoder/pixelFormat',
        message:
          'the pixel format is chosen for mp4 only; mov keeps its own (it carries alpha or a palette) (output format mov)',
      },
    ]);

    if ((await hardwareEncoderProblem({ codec: 'h264_nvenc' })) !== undefined) {
      // No NVIDIA driver on this machine: the encoder is refused before anything is queued.
      const nvenc = await post(api, { encoder: { codec: 'h264_nvenc' } });
      expect(nvenc.status).toBe(422);
      expect(nvenc.headers.get('content-type')).toContain('application/problem+json');
      expect(nvenc.body).toMatchObject({
        code: 'encoder_unavailable',
        errors: [{ pointer: '/options/encoder/codec' }],
      });
      expect(nvenc.body.detail).toMatch(
        /^h264_nvenc (is not available|is listed by this ffmpeg but cannot encode here)/,
      );
    }
  });

  it('renders with the settings, shows them in the job and records them in the receipt', async () => {
    const api = await start();
    const encoder = { crf: 30, preset: 'ultrafast', pixelFormat: 'yuv444p' };
    const created = await post(api, { quality: 'draft', encoder });
    expect(created.status, created.text).toBe(202);
    expect(created.body.options).toMatchObject({ format: 'mp4', quality: 'draft', encoder });
    const job = await waitForRender(api, created.body.id as string, { timeoutMs: 120_000 });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.receipt?.options.encoder).toEqual({ codec: 'libx264', ...encoder });
    expect(job.receipt?.output.probe.video?.pixFmt).toBe('yuv444p');
    expect(job.receipt?.inputs.request).toMatchObject({ options: { encoder } });
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  effectiveBaseUrl,
  loadServerConfig,
  parseBytes,
  parseDuration,
  parseRateLimit,
} from './config.ts';

describe('server configuration', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadServerConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      baseUrl: undefined,
      dataDir: '/srv/app/.kino',
      localStorageDir: '/srv/app/.kino/files',
      apiToken: undefined,
      renderConcurrency: 1,
      storageBackend: 'local',
      fileTtlMs: 24 * 3_600_000,
      cleanupIntervalMs: 15 * 60_000,
      publicByDefault: false,
      docsEnabled: true,
      maxBodyBytes: 1024 * 1024,
      rateLimit: { max: 600, windowMs: 60_000 },
    });
    expect(path.basename(config.renderProject)).toBe('examples');
  });

  it('reads every variable', () => {
    const config = loadServerConfig(
      {
        PORT: '9000',
        HOST: '0.0.0.0',
        BASE_URL: 'https://render.example.com/',
        DATA_DIR: 'data',
        API_TOKEN: 'a'.repeat(32),
        FILE_TTL: '48h',
        MAX_TTL: '7d',
        CLEANUP_INTERVAL: '0',
        PUBLIC_BY_DEFAULT: 'true',
        DOCS_ENABLED: 'false',
        MAX_BODY: '256KiB',
        RATE_LIMIT: '20/s',
        RENDER_CONCURRENCY: '2',
      },
      '/srv',
    );
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      baseUrl: 'https://render.example.com',
      dataDir: '/srv/data',
      fileTtlMs: 48 * 3_600_000,
      maxTtlMs: 7 * 86_400_000,
      cleanupIntervalMs: 0,
      publicByDefault: true,
      docsEnabled: false,
      maxBodyBytes: 256 * 1024,
      rateLimit: { max: 20, windowMs: 1000 },
      renderConcurrency: 2,
    });
    expect(loadServerConfig({ RATE_LIMIT: '0' }).rateLimit).toBeNull();
  });

  it('names every bad variable in one message', () => {
    expect(() => loadServerConfig({ PORT: 'eighty', FILE_TTL: '1 day', API_TOKEN: 'short' })).toThrow(
      ConfigError,
    );
    try {
      loadServerConfig({ PORT: 'eighty', FILE_TTL: '1 day', API_TOKEN: 'short', RATE_LIMIT: 'lots' });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'FILE_TTL', 'API_TOKEN', 'RATE_LIMIT']) expect(message).toContain(name);
      expect(message).not.toContain('short');
    }
    expect(() => loadServerConfig({ FILE_TTL: '60d', MAX_TTL: '30d' })).toThrow(
      /FILE_TTL is longer than MAX_TTL/,
    );
    expect(() => loadServerConfig({ STORAGE_BACKEND: 'ftp' })).toThrow(/STORAGE_BACKEND/);
    expect(() => loadServerConfig({ RENDER_THREADS: '0' })).toThrow(/RENDER_THREADS/);
    expect(() => loadServerConfig({ RENDER_THREADS: 'all' })).toThrow(/RENDER_THREADS/);
    expect(() => loadServerConfig({ RENDER_THREADS: '4' })).not.toThrow();
  });

  it('parses durations, sizes and rates', () => {
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('1.5h')).toBeUndefined();
    expect(parseDuration('h')).toBeUndefined();
    expect(parseBytes('1MiB')).toBe(1_048_576);
    expect(parseBytes('2MB')).toBe(2_000_000);
    expect(parseBytes('4096')).toBe(4096);
    expect(parseBytes('1 parsec')).toBeUndefined();
    expect(parseRateLimit('600/min')).toEqual({ max: 600, windowMs: 60_000 });
    expect(parseRateLimit('0/min')).toBeUndefined();
  });

  it('derives a base URL a client can reach', () => {
    const config = loadServerConfig({ HOST: '0.0.0.0' });
    expect(effectiveBaseUrl(config, 4321)).toBe('http://localhost:4321');
    expect(effectiveBaseUrl(loadServerConfig({ HOST: '::1' }), 80)).toBe('http://[::1]:80');
    expect(effectiveBaseUrl(loadServerConfig({ BASE_URL: 'https://x.example' }), 80)).toBe(
      'https://x.example',
    );
  });
});

describe('S3 storage configuration', () => {
  it('reads the S3 settings, trimming the prefix and the public base URL', () => {
    const config = loadServerConfig({
      STORAGE_BACKEND: 's3',
      S3_BUCKET: 'renders',
      S3_REGION: 'eu-west-1',
      S3_ENDPOINT: 'https://minio.example.com:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: '/kino/prod/',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PUBLIC_BASE_URL: 'https://cdn.example.com/',
    });
    expect(config.s3).toEqual({
      bucket: 'renders',
      region: 'eu-west-1',
      endpoint: 'https://minio.example.com:9000',
      forcePathStyle: true,
      prefix: 'kino/prod',
      accessKeyId: 'AKIA',
      secretAccessKey: 'secret',
      publicBaseUrl: 'https://cdn.example.com',
    });
    expect(loadServerConfig({}).s3).toBeUndefined();
  });

  it('refuses S3 without a bucket, half a key pair, or a bad endpoint', () => {
    expect(() => loadServerConfig({ STORAGE_BACKEND: 's3' })).toThrow(/STORAGE_BACKEND=s3 needs S3_BUCKET/);
    expect(() =>
      loadServerConfig({ STORAGE_BACKEND: 's3', S3_BUCKET: 'renders', S3_ACCESS_KEY_ID: 'AKIA' }),
    ).toThrow(/both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither/);
    expect(() =>
      loadServerConfig({ STORAGE_BACKEND: 's3', S3_BUCKET: 'renders', S3_ENDPOINT: 'ftp://x' }),
    ).toThrow(ConfigError);
    expect(() => loadServerConfig({ STORAGE_BACKEND: 'gcs' })).toThrow(/expected "local" or "s3"/);
  });
});

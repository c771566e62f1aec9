// A real S3-protocol server on loopback for the tests: s3rver (buckets, objects, multipart uploads,
// listings, presigned URLs) behind a gate that checks AWS Signature Version 4 as S3 does, for signed
// headers and presigned query strings alike, expiry included. s3rver checks only version 2
// signatures (its v4 check is "unimplemented": any v4 signature passes), so without the gate a
// wrong secret, a presigned GET used for a PUT or for another key would all be let through. The gate
// recomputes each signature with the AWS SDK's own signer and the server's one key pair.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';

/** The server's one key pair (s3rver's own default account). */
export const S3_TEST_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

interface S3rverInstance {
  configureBuckets(): Promise<void>;
  callback(): RequestListener;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export interface S3TestServer {
  endpoint: string;
  directory: string;
  /** Every request that passed the gate: method and path with query, in order. */
  requests: string[];
  close(): Promise<void>;
}

const bytes = (data: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

/** node:crypto as the signer's hash (its Checksum interface). */
class Sha256 {
  #hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.#hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.#hash.digest());
  }
  reset() {}
}

function refuse(res: ServerResponse, code: string, message: string): void {
  res.writeHead(403, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

const PRESIGN_PARAMETERS = new Set([
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
  'X-Amz-Signature',
  'X-Amz-Security-Token',
  // Given to the presign as the header it was hoisted from: it is the payload hash too.
  'X-Amz-Content-Sha256',
]);

/** "20261124T071500Z" → Date. */
function amzDate(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : new Date(NaN);
}

function same(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Why the request's signature is not valid, or undefined when it is. */
async function signatureProblem(req: IncomingMessage): Promise<[string, string] | undefined> {
  const url = new URL(req.url ?? '/', 'http://s3.test');
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = value;
  const presigned = 'X-Amz-Signature' in query;
  const authorization = req.headers.authorization;
  if (!presigned && !authorization) return ['AccessDenied', 'Anonymous access is not allowed'];
  const credential = presigned
    ? query['X-Amz-Credential']
    : /Credential=([^,]+)/.exec(authorization ?? '')?.[1];
  const [accessKeyId, , region] = (credential ?? '').split('/');
  if (accessKeyId !== S3_TEST_KEY.accessKeyId) {
    return ['InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'];
  }
  const signedHeaders = (presigned
    ? query['X-Amz-SignedHeaders']
    : /SignedHeaders=([^,]+)/.exec(authorization ?? '')?.[1]
  )?.split(';') ?? ['host'];
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) headers[name] = String(req.headers[name] ?? '');
  const signer = new SignatureV4({
    credentials: S3_TEST_KEY,
    region: region ?? 'us-east-1',
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const request = {
    method: req.method ?? 'GET',
    protocol: 'http:',
    hostname: url.hostname,
    path: decodeURIComponent(url.pathname),
    headers,
    // The presign adds its own parameters again; the rest (x-id, X-Amz-Content-Sha256 …) is signed as given.
    query: Object.fromEntries(Object.entries(query).filter(([name]) => !PRESIGN_PARAMETERS.has(name))),
  };
  if (presigned) {
    const signingDate = amzDate(query['X-Amz-Date'] ?? '');
    const expiresIn = Number(query['X-Amz-Expires']);
    if (Date.now() > signingDate.getTime() + expiresIn * 1000) return ['AccessDenied', 'Request has expired'];
    const { host: _host, ...hoisted } = headers;
    const payload = query['X-Amz-Content-Sha256'];
    const expected = await signer.presign(
      {
        ...request,
        headers: { host: headers.host!, ...(payload ? { 'X-Amz-Content-Sha256': payload } : {}) },
      },
      { signingDate, expiresIn, unhoistableHeaders: new Set(Object.keys(hoisted)) },
    );
    const wanted = (expected.query as Record<string, string>)['X-Amz-Signature'] ?? '';
    return same(wanted, query['X-Amz-Signature']!)
      ? undefined
      : ['SignatureDoesNotMatch', 'presigned signature mismatch'];
  }
  const signingDate = amzDate(String(req.headers['x-amz-date'] ?? ''));
  const signed = await signer.sign(request, { signingDate, signableHeaders: new Set(signedHeaders) });
  const wanted = /Signature=([0-9a-f]+)/.exec(
    String(signed.headers.authorization ?? signed.headers.Authorization),
  )?.[1];
  const given = /Signature=([0-9a-f]+)/.exec(authorization ?? '')?.[1];
  return wanted && given && same(wanted, given) ? undefined : ['SignatureDoesNotMatch', 'signature mismatch'];
}

export async function startS3Server(buckets: readonly string[]): Promise<S3TestServer> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = mkdtempSync(path.join(tmpdir(), 'kino-s3-'));
  const s3rver = new S3rver({
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  await s3rver.configureBuckets();
  const serve = s3rver.callback();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    signatureProblem(req).then(
      (problem) => {
        if (problem) return refuse(res, ...problem);
        requests.push(`${req.method} ${req.url}`);
        serve(req, res);
      },
      (error: unknown) => refuse(res, 'SignatureDoesNotMatch', String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    directory,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

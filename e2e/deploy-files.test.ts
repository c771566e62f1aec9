// The deployment files: compose.yaml, the Dockerfile and deploy/ (Kubernetes manifests, systemd units,
// the environment file). Each is valid by its format's own rules, with no Docker, cluster or systemd
// here: compose.yaml by the Compose Specification's JSON schema (the compose-spec repository's
// schema/compose-spec.json, as the dclint package ships it) after interpolation as `docker compose
// config` does it; the manifests by the Kubernetes OpenAPI schemas (kubernetes-models, generated from
// Kubernetes 1.36: it accepts unknown fields, as kubeconform without -strict does, so the checks below
// read every field that matters at its path); the units by systemd-analyze where it is installed.
// Then what an operator would check: the services a scaled-out Kino needs, Redis that loses no
// accepted job, API and workers on one queue and one bucket, workers that outlive their drain, only
// variables Kino reads, values its configuration loader accepts, and no secret in the repository.
import { spawnSync } from 'node:child_process';
import { globSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { Ajv } from 'ajv';
import { CORE_SCHEMA, load, loadAll, mergeTag } from 'js-yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { loadServerConfig, parseDuration } from '../main/renders/config.ts';
import { loadWorkerHealthConfig } from '../main/renders/worker-health-config.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

type Env = Record<string, string>;
type Json = unknown;

// ---------------------------------------------------------------------------------------------------
// What Kino reads

/** Every environment variable the code reads: the API's schema in config.ts and each env lookup. */
function variablesReadByCode(): Set<string> {
  const names = new Set<string>();
  const config = read('main/renders/config.ts');
  const schemaStart = config.indexOf('const EnvSchema = z.object({');
  expect(schemaStart, 'EnvSchema in main/renders/config.ts').toBeGreaterThan(0);
  const schema = config.slice(schemaStart, config.indexOf('\n});', schemaStart));
  for (const match of schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)) names.add(match[1]!);
  const lookups = [
    /\benv\.([A-Z][A-Z0-9_]*)\b/g, // process.env.NAME, env.NAME
    /\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g, // env['NAME']
    /\benv,\s*['"]([A-Z][A-Z0-9_]*)['"]/g, // value(env, 'NAME')
  ];
  const sources = globSync('main/**/*.{ts,mjs}', { cwd: ROOT }).filter(
    (file) => !/\.(test|fixture)\.ts$/.test(file),
  );
  for (const file of sources) {
    const text = read(file);
    for (const pattern of lookups) for (const match of text.matchAll(pattern)) names.add(match[1]!);
  }
  return names;
}

/** Names whose values are secrets: never written in the repository, only referenced. */
const isSecretName = (name: string) => /TOKEN|SECRET|PASSWORD|_KEY$|_KEY_ID$/.test(name);

/** Values that look like real credentials, wherever they stand (comments included). */
const CREDENTIAL_PATTERNS = [
  /whsec_[A-Za-z0-9+/]{16,}/, // a Standard Webhooks secret
  /\bAKIA[0-9A-Z]{16}\b/, // an AWS access key id
  /minioadmin/i, // MinIO's well-known default
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

/** A random-looking run (upper, lower case and digits, 24+ characters): a generated token or key. */
function randomLooking(text: string): string[] {
  return [...text.matchAll(/[A-Za-z0-9+/_-]{24,}={0,2}/g)]
    .map((match) => match[0])
    .filter((word) => /[A-Z]/.test(word) && /[a-z]/.test(word) && /[0-9]/.test(word));
}

// ---------------------------------------------------------------------------------------------------
// Reading the files as their tools do

/** YAML as Compose and Kubernetes read it: the YAML 1.2 core schema with merge keys (`<<: *anchor`). */
const YAML_SCHEMA = CORE_SCHEMA.withTags(mergeTag);
const loadYaml = (text: string) => load(text, { schema: YAML_SCHEMA }) as Json;

/** KEY=value lines, as systemd's EnvironmentFile= and Compose's .env read them (no quoting used here). */
function parseEnvFile(text: string): Env {
  const env: Env = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(trimmed);
    expect(match, `not a KEY=value line: ${line}`).not.toBeNull();
    env[match![1]!] = match![2]!;
  }
  return env;
}

const INTERPOLATION = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** Compose's interpolation of one string: ${NAME}, ${NAME:-default}, ${NAME:?error}, $$ … */
function interpolate(text: string, env: Env, missing: Set<string>): string {
  return text.replace(INTERPOLATION, (match, braced?: string, op?: string, arg?: string, bare?: string) => {
    if (match === '$$') return '$';
    const name = (braced ?? bare)!;
    const value = env[name];
    const set = value !== undefined;
    const nonEmpty = set && value !== '';
    switch (op) {
      case ':-':
        return nonEmpty ? value : arg!;
      case '-':
        return set ? value : arg!;
      case ':?':
        if (!nonEmpty) missing.add(name);
        return value ?? '';
      case '?':
        if (!set) missing.add(name);
        return value ?? '';
      case ':+':
        return nonEmpty ? arg! : '';
      case '+':
        return set ? arg! : '';
      default:
        return value ?? '';
    }
  });
}

/** Every string value of a document, interpolated (keys stay as written, as in Compose). */
function interpolateAll(value: Json, env: Env, missing: Set<string>): Json {
  if (typeof value === 'string') return interpolate(value, env, missing);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, env, missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateAll(item, env, missing)]),
    );
  }
  return value;
}

/** The variables a string interpolates ($$ is a literal dollar). */
function interpolatedNames(value: Json): string[] {
  if (typeof value === 'string') {
    return [...value.matchAll(INTERPOLATION)].filter((m) => m[0] !== '$$').map((m) => (m[1] ?? m[4])!);
  }
  if (Array.isArray(value)) return value.flatMap(interpolatedNames);
  if (value && typeof value === 'object') return Object.values(value).flatMap(interpolatedNames);
  return [];
}

/** A Compose duration ("40s", "2m30s", "1h"), in ms. */
function composeDurationMs(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|us|h|m|s)/g)];
  expect(parts.map((p) => p[0]).join(''), `duration ${text}`).toBe(text);
  const unit = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001 } as const;
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2] as keyof typeof unit], 0);
}

/** A systemd time span ("40s", "2min 30s", "150"), in ms. */
function systemdSpanMs(text: string): number {
  const unit: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000 };
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const parts = [...text.matchAll(/(\d+)\s*(ms|sec|s|min|m|h)\b/g)];
  expect(parts.length, `time span ${text}`).toBeGreaterThan(0);
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]!]!, 0);
}

/** A unit file's [Section] → key → values (a key may repeat). */
function parseUnit(text: string): Record<string, Record<string, string[]>> {
  const sections: Record<string, Record<string, string[]>> = {};
  let current: Record<string, string[]> | undefined;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(trimmed);
    if (section) {
      current = sections[section[1]!] ??= {};
      continue;
    }
    const entry = /^([A-Za-z]+)=(.*)$/.exec(trimmed);
    expect(entry && current, `unit line ${line}`).toBeTruthy();
    (current![entry![1]!] ??= []).push(entry![2]!);
  }
  return sections;
}

/** Environment=A=1 B=2 (unquoted assignments, as the units write them). */
const unitEnvironment = (lines: string[] = []): Env =>
  Object.fromEntries(
    lines.flatMap((line) => line.split(/\s+/)).map((pair) => pair.split(/=(.*)/s).slice(0, 2)),
  );

/** Dockerfile ENV instructions (KEY=value form, continued lines joined). */
function dockerfileEnv(text: string): Env {
  const joined = text.replace(/\\\n/g, ' ');
  const env: Env = {};
  for (const line of joined.split('\n').filter((l) => /^ENV\s/.test(l))) {
    for (const match of line.slice(4).matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S*)/g)) env[match[1]!] = match[2]!;
  }
  return env;
}

// ---------------------------------------------------------------------------------------------------
// The files

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  stop_grace_period?: string;
  volumes?: string[];
  ports?: string[];
  restart?: string;
  entrypoint?: string[];
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const ENV_EXAMPLE = parseEnvFile(read('deploy/kino.env.example'));
/** Made-up secrets for the run (never written anywhere): what an operator puts in .env. */
const FILLED_SECRETS: Env = {
  API_TOKEN: randomBytes(24).toString('base64url'),
  SIGNING_SECRET: randomBytes(24).toString('base64url'),
  WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
  S3_ACCESS_KEY_ID: 'kino-test-key',
  S3_SECRET_ACCESS_KEY: randomBytes(24).toString('base64url'),
};
/** `.env` copied from deploy/kino.env.example and filled in. */
const DOT_ENV: Env = { ...ENV_EXAMPLE, ...FILLED_SECRETS };

const composeRaw = loadYaml(read('compose.yaml'));
const composeMissing = new Set<string>();
const compose = interpolateAll(composeRaw, DOT_ENV, composeMissing) as ComposeFile;

const manifests = globSync('deploy/kubernetes/*.yaml', { cwd: ROOT }).flatMap((file) =>
  loadAll(read(file), { schema: YAML_SCHEMA }).map((doc) => ({ file, doc: doc as K8sObject })),
);

interface K8sContainer {
  name: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string> };
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  data?: Env;
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Env } & Env;
    ports?: { port: number; targetPort: string | number }[];
    template?: {
      metadata: { labels: Env };
      spec: { terminationGracePeriodSeconds?: number; containers: K8sContainer[] };
    };
  };
}

const byKind = (kind: string) => manifests.map((m) => m.doc).filter((doc) => doc.kind === kind);
const deployment = (component: string) => {
  const found = byKind('Deployment').find(
    (d) => d.spec?.template?.metadata.labels['app.kubernetes.io/component'] === component,
  );
  expect(found, `a Deployment for the ${component}`).toBeDefined();
  return found!;
};

const units = Object.fromEntries(
  globSync('deploy/systemd/*.service', { cwd: ROOT }).map((file) => [
    path.basename(file),
    parseUnit(read(file)),
  ]),
);

/** The shutdown grace a process has: its SHUTDOWN_GRACE, else the configuration's default. */
const DEFAULT_GRACE_MS = loadServerConfig({}).shutdownGraceMs;
const graceMs = (env: Env) => (env.SHUTDOWN_GRACE ? parseDuration(env.SHUTDOWN_GRACE)! : DEFAULT_GRACE_MS);
const DEFAULT_PORT = loadServerConfig({}).port;
const KINO_BIN = (JSON.parse(read('package.json')) as { bin: { kino: string } }).bin.kino;

// ---------------------------------------------------------------------------------------------------

describe('compose.yaml', () => {
  it('is valid by the Compose Specification schema, as written and after interpolation', () => {
    const schemaFile = path.join(
      path.dirname(createRequire(import.meta.url).resolve('dclint/package.json')),
      'schemas/compose.schema.json',
    );
    const { $schema, ...schema } = JSON.parse(readFileSync(schemaFile, 'utf8')) as {
      $schema: string;
      title: string;
    };
    expect(schema.title).toBe('Compose Specification');
    // Draft 7, which Ajv knows by its http:// address.
    expect($schema).toBe('https://json-schema.org/draft-07/schema');
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    for (const doc of [composeRaw, compose]) {
      validate(doc);
      expect(validate.errors ?? []).toEqual([]);
    }
    // The schema does catch mistakes (a misspelt key; replicas that are no number).
    const broken = structuredClone(compose) as unknown as {
      services: Record<string, Record<string, unknown>>;
    };
    broken.services.worker!.deploy = { replica: 2 };
    broken.services.api!.stop_grace_periods = '40s';
    expect(validate(broken)).toBe(false);
  });

  it('stops on each secret a .env leaves out, naming it', () => {
    expect(composeMissing).toEqual(new Set());
    const missing = new Set<string>();
    interpolateAll(composeRaw, ENV_EXAMPLE, missing);
    expect([...missing].sort()).toEqual([
      'API_TOKEN',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'SIGNING_SECRET',
    ]);
    // Every variable it interpolates is one the .env pattern (deploy/kino.env.example) has.
    for (const name of interpolatedNames(composeRaw)) expect(Object.keys(ENV_EXAMPLE)).toContain(name);
  });

  it('runs Redis, MinIO with its bucket, the API and the workers, each after what it needs', () => {
    const { services } = compose;
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['redis', 'minio', 'api', 'worker']));
    for (const [name, service] of Object.entries(services)) {
      for (const [target, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(services[target], `${name} depends on ${target}`).toBeDefined();
        if (condition === 'service_healthy')
          expect(services[target]!.healthcheck, `${target} healthcheck`).toBeDefined();
        if (condition === 'service_completed_successfully') expect(services[target]!.restart).toBe('no');
      }
    }
    const bucketService = Object.entries(services).find(([, s]) =>
      s.command?.some((c) => c.includes('mc mb')),
    );
    expect(bucketService, 'a service that makes the bucket').toBeDefined();
    const [bucketName, bucket] = bucketService!;
    expect(bucket.depends_on?.minio?.condition).toBe('service_healthy');
    expect(bucket.command!.join(' ')).toContain('--ignore-existing');
    for (const name of ['api', 'worker']) {
      expect(services[name]!.depends_on).toMatchObject({
        redis: { condition: 'service_healthy' },
        [bucketName]: { condition: 'service_completed_successfully' },
      });
    }
  });

  it('keeps every accepted job in Redis across a restart', () => {
    const redis = compose.services.redis!;
    expect(redis.image).toMatch(/^redis:7(\.|$)/);
    const args = redis.command!.join(' ');
    expect(args).toMatch(/--appendonly yes\b/);
    expect(args).toMatch(/--appendfsync (everysec|always)\b/);
    expect(args).toMatch(/--maxmemory-policy noeviction\b/);
    const dataVolume = redis.volumes!.find((v) => v.endsWith(':/data'))!;
    expect(dataVolume, 'a volume at /data').toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(dataVolume.split(':')[0]);
  });

  it('gives the API and the workers one image, one queue, one bucket and one project', () => {
    const { api, worker } = compose.services;
    expect(api!.image).toBe(worker!.image);
    expect(api!.build).toEqual(worker!.build);
    expect(api!.command).toEqual(['serve']);
    expect(worker!.command![0]).toBe('worker');
    expect(worker!.deploy?.replicas).toBeGreaterThan(1);
    const shared = [
      'QUEUE_BACKEND',
      'REDIS_URL',
      'QUEUE_PREFIX',
      'STORAGE_BACKEND',
      'S3_BUCKET',
      'S3_REGION',
      'S3_ENDPOINT',
      'S3_FORCE_PATH_STYLE',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'RENDER_PROJECT',
    ];
    for (const name of shared) {
      expect(api!.environment![name], name).toBeTruthy();
      expect(worker!.environment![name], name).toBe(api!.environment![name]);
    }
    expect(api!.environment!.QUEUE_BACKEND).toBe('redis');
    expect(api!.environment!.STORAGE_BACKEND).toBe('s3');
    expect(new URL(api!.environment!.REDIS_URL!).hostname).toBe('redis');
    // The API listens where it is published and checked.
    const port = Number(api!.environment!.PORT ?? DEFAULT_PORT);
    expect(api!.ports!.some((p) => p.endsWith(`:${port}`))).toBe(true);
    expect(api!.healthcheck!.test.join(' ')).toContain(`:${port}/v1/readyz`);
    // Each worker is checked on its own health endpoint, where its settings say it listens.
    const health = loadWorkerHealthConfig(worker!.environment!);
    expect(health, 'WORKER_HEALTH_PORT on the workers').toBeDefined();
    expect(worker!.healthcheck!.test.join(' ')).toContain(`//${health!.host}:${health!.port}/readyz`);
  });

  it('lets a stopping API and worker drain before Docker kills them', () => {
    for (const name of ['api', 'worker']) {
      const service = compose.services[name]!;
      const grace = graceMs({ ...dockerfileEnv(read('Dockerfile')), ...service.environment });
      expect(composeDurationMs(service.stop_grace_period!), name).toBeGreaterThan(grace);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('builds on Node 24 and Debian, with ffmpeg, the locked packages and the kino command', () => {
    expect(dockerfile).toMatch(/^FROM node:24-bookworm(-slim)?$/m);
    expect(dockerfile).toMatch(/apt-get install[^\n]*\bffmpeg\b/);
    expect(dockerfile).toMatch(/^RUN npm ci\b/m);
    const entrypoint = JSON.parse(/^ENTRYPOINT (.+)$/m.exec(dockerfile)![1]!) as string[];
    expect(entrypoint.slice(-2)).toEqual(['node', `/app/${KINO_BIN}`]);
    const env = dockerfileEnv(dockerfile);
    expect(env.HOST).toBe('0.0.0.0');
    expect(dockerfile).toContain(`EXPOSE ${env.PORT ?? DEFAULT_PORT}`);
  });

  it('leaves secrets and installed packages out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.env', 'node_modules', '.git', '.kino']));
  });
});

describe('Kubernetes manifests', () => {
  it('are valid by the Kubernetes OpenAPI schemas', () => {
    const models = { ConfigMap, Deployment, Service } as const;
    expect(manifests.length).toBeGreaterThanOrEqual(4);
    for (const { file, doc } of manifests) {
      const Model = models[doc.kind as keyof typeof models];
      expect(Model, `${file}: a ${doc.kind} (only ConfigMap, Deployment, Service here)`).toBeDefined();
      expect(doc.apiVersion).toBe(Model.apiVersion);
      expect(
        () => new Model(doc as never).validate(),
        `${file}: ${doc.kind} ${doc.metadata.name}`,
      ).not.toThrow();
    }
    // The schemas do catch mistakes: a port that is no number.
    const broken = structuredClone(deployment('api'));
    (broken.spec!.template!.spec.containers[0]!.ports![0] as { containerPort: unknown }).containerPort =
      'http';
    expect(() => new Deployment(broken as never).validate()).toThrow();
  });

  it('probe the API on its health routes and serve it on its port', () => {
    const api = deployment('api');
    const container = api.spec!.template!.spec.containers[0]!;
    expect(container.args).toEqual(['serve']);
    const port = container.ports![0]!;
    expect(port.containerPort).toBe(DEFAULT_PORT);
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/v1/readyz', port: port.name });
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/v1/healthz', port: port.name });
    const service = byKind('Service')[0]!;
    expect(service.spec!.selector).toEqual(api.spec!.template!.metadata.labels);
    expect(service.spec!.ports![0]!.targetPort).toBe(port.name);
    expect(api.spec!.selector!.matchLabels).toEqual(api.spec!.template!.metadata.labels);
  });

  it('probe the workers on their own health endpoint, on the pod address', () => {
    const container = deployment('worker').spec!.template!.spec.containers[0]!;
    const health = loadWorkerHealthConfig(k8sEnv(container));
    expect(health, 'WORKER_HEALTH_PORT on the workers').toBeDefined();
    // The kubelet probes the pod's address, never its loopback.
    expect(health!.host).toBe('0.0.0.0');
    const port = container.ports!.find((p) => p.containerPort === health!.port);
    expect(port?.name, `a named container port ${health!.port}`).toBeTruthy();
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: port!.name });
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: port!.name });
  });

  it('run several workers that share the queue and outlive their drain', () => {
    const worker = deployment('worker');
    expect(worker.spec!.replicas).toBeGreaterThan(1);
    expect(worker.spec!.selector!.matchLabels).toEqual(worker.spec!.template!.metadata.labels);
    expect(worker.spec!.template!.spec.containers[0]!.args![0]).toBe('worker');
    for (const component of ['api', 'worker']) {
      const pod = deployment(component).spec!.template!.spec;
      const env = k8sEnv(pod.containers[0]!);
      expect(env.QUEUE_BACKEND, component).toBe('redis');
      expect(env.REDIS_URL, component).toBe('<secret kino-secrets/REDIS_URL>');
      expect(env.STORAGE_BACKEND, component).toBe('s3');
      expect(pod.terminationGracePeriodSeconds! * 1000, component).toBeGreaterThan(graceMs(env));
      expect(Object.keys(pod.containers[0]!.resources?.requests ?? {}).sort(), component).toEqual([
        'cpu',
        'memory',
      ]);
    }
  });
});

/** A container's environment: its ConfigMaps' data, its values, and placeholders for secret keys. */
function k8sEnv(container: K8sContainer): Env {
  const env: Env = {};
  for (const from of container.envFrom ?? []) {
    expect(from.secretRef, 'secrets by key (secretKeyRef), so the keys are named here').toBeUndefined();
    const map = byKind('ConfigMap').find((c) => c.metadata.name === from.configMapRef?.name);
    expect(map, `ConfigMap ${from.configMapRef?.name}`).toBeDefined();
    Object.assign(env, map!.data);
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    env[entry.name] = ref ? `<secret ${ref.name}/${ref.key}>` : entry.value!;
  }
  return env;
}

describe('systemd units', () => {
  const api = units['kino-api.service']!;
  const worker = units['kino-worker@.service']!;

  it('run the API and a template of workers from /etc/kino/kino.env, restarted on failure', () => {
    expect(api.Service!.ExecStart).toEqual([
      expect.stringMatching(new RegExp(` /opt/kino/${KINO_BIN} serve$`)),
    ]);
    expect(worker.Service!.ExecStart).toEqual([
      expect.stringMatching(new RegExp(` /opt/kino/${KINO_BIN} worker\\b`)),
    ]);
    expect(worker.Unit!.Description![0]).toContain('%i');
    for (const unit of [api, worker]) {
      expect(unit.Service!.EnvironmentFile).toEqual(['/etc/kino/kino.env']);
      expect(unit.Service!.Restart).toEqual(['on-failure']);
      expect(unit.Install!.WantedBy).toEqual(['multi-user.target']);
    }
  });

  it('stop with SIGTERM to Kino alone and wait out its drain', () => {
    for (const [name, unit] of [
      ['api', api],
      ['worker', worker],
    ] as const) {
      expect(unit.Service!.KillSignal, name).toEqual(['SIGTERM']);
      // mixed: the render processes are not signalled with Kino, which stops them itself.
      expect(unit.Service!.KillMode, name).toEqual(['mixed']);
      const env = { ...unitEnvironment(unit.Service!.Environment), ...ENV_EXAMPLE }; // the file wins
      expect(systemdSpanMs(unit.Service!.TimeoutStopSec![0]!), name).toBeGreaterThan(graceMs(env));
    }
  });

  it('are hardened, writing only to the data folder', () => {
    for (const unit of [api, worker]) {
      const service = unit.Service!;
      expect(service.NoNewPrivileges).toEqual(['yes']);
      expect(service.ProtectSystem).toEqual(['strict']);
      expect(service.PrivateTmp).toEqual(['yes']);
      expect(service.User).toEqual(['kino']);
      expect(service.MemoryDenyWriteExecute, 'V8 needs W^X memory').toBeUndefined();
      const dataDir = unitEnvironment(service.Environment).DATA_DIR!;
      const writable = service.ReadWritePaths!.join(' ').split(/\s+/);
      expect(
        writable.some((dir) => dataDir === dir || dataDir.startsWith(`${dir}/`)),
        dataDir,
      ).toBe(true);
    }
    // Each worker instance has its own scratch space.
    expect(unitEnvironment(worker.Service!.Environment).DATA_DIR).toContain('%i');
  });

  it.skipIf(!existsSync('/usr/bin/systemd-analyze'))('are valid for systemd-analyze verify', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kino-units-'));
    try {
      // Checked as installed: node where the units expect it (else this Node), a worker instance.
      const node = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;
      const copy = (file: string, as: string) =>
        writeFileSync(path.join(dir, as), read(`deploy/systemd/${file}`).replaceAll('/usr/bin/node', node));
      copy('kino-api.service', 'kino-api.service');
      copy('kino-worker@.service', 'kino-worker@1.service');
      const result = spawnSync(
        '/usr/bin/systemd-analyze',
        ['verify', '--man=no', path.join(dir, 'kino-api.service'), path.join(dir, 'kino-worker@1.service')],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(result.stderr + result.stdout).toBe('');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Each Kino process the files start, with the environment it gets (secrets filled in). */
function processEnvironments(): Record<string, Env> {
  const image = dockerfileEnv(read('Dockerfile'));
  const fromSecrets = (env: Env): Env =>
    Object.fromEntries(
      Object.entries(env).map(([name, value]) => [
        name,
        /^<secret .+>$/.test(value)
          ? name === 'REDIS_URL'
            ? 'redis://redis:6379'
            : FILLED_SECRETS[name]!
          : value,
      ]),
    );
  return {
    'compose api': { ...image, ...compose.services.api!.environment },
    'compose worker': { ...image, ...compose.services.worker!.environment },
    'kubernetes api': {
      ...image,
      ...fromSecrets(k8sEnv(deployment('api').spec!.template!.spec.containers[0]!)),
    },
    'kubernetes worker': {
      ...image,
      ...fromSecrets(k8sEnv(deployment('worker').spec!.template!.spec.containers[0]!)),
    },
    'systemd api': { ...unitEnvironment(units['kino-api.service']!.Service!.Environment), ...DOT_ENV },
    'systemd worker': { ...unitEnvironment(units['kino-worker@.service']!.Service!.Environment), ...DOT_ENV },
  };
}

describe('the environment', () => {
  it('names only variables Kino reads', () => {
    const known = variablesReadByCode();
    const named: Record<string, string[]> = {
      'deploy/kino.env.example': Object.keys(ENV_EXAMPLE),
      Dockerfile: Object.keys(dockerfileEnv(read('Dockerfile'))),
      'compose.yaml': [
        ...Object.keys(compose.services.api!.environment!),
        ...Object.keys(compose.services.worker!.environment!),
        ...interpolatedNames(composeRaw),
      ],
      'deploy/kubernetes': manifests.flatMap(({ doc }) => [
        ...Object.keys(doc.data ?? {}),
        ...(doc.spec?.template?.spec.containers ?? []).flatMap((c) => [
          ...(c.env ?? []).flatMap((e) => [e.name, e.valueFrom?.secretKeyRef?.key ?? e.name]),
        ]),
      ]),
      'deploy/systemd': Object.values(units).flatMap((unit) =>
        Object.keys(unitEnvironment(unit.Service!.Environment)),
      ),
    };
    for (const [file, names] of Object.entries(named)) {
      expect(names.length, file).toBeGreaterThan(0);
      expect(
        names.filter((name) => !known.has(name)),
        `${file}: variables Kino does not read`,
      ).toEqual([]);
    }
  });

  it("is accepted by Kino's configuration loader for every process", () => {
    for (const [name, env] of Object.entries(processEnvironments())) {
      expect(() => loadServerConfig(env), name).not.toThrow();
      expect(env.QUEUE_BACKEND, name).toBe('redis');
      expect(env.REDIS_URL, name).toMatch(/^rediss?:\/\//);
    }
  });

  it('holds no secret: every one is left empty or taken from .env or a Secret', () => {
    // The environment file: secrets empty.
    for (const [name, value] of Object.entries(ENV_EXAMPLE)) {
      if (isSecretName(name)) expect(value, `deploy/kino.env.example: ${name}`).toBe('');
    }
    // compose.yaml: secrets only as a variable of .env, with no default.
    const services = (composeRaw as ComposeFile).services;
    for (const [service, { environment = {} }] of Object.entries(services)) {
      for (const [name, value] of Object.entries(environment)) {
        if (isSecretName(name))
          expect(value, `${service}: ${name}`).toMatch(/^\$\{[A-Z0-9_]+(:\?[^}]*|:-)?\}$/);
      }
    }
    // Kubernetes: no Secret object, no secret in a ConfigMap or a plain value.
    expect(byKind('Secret')).toEqual([]);
    for (const { doc } of manifests) {
      for (const name of Object.keys(doc.data ?? {})) expect(isSecretName(name), name).toBe(false);
      for (const c of doc.spec?.template?.spec.containers ?? []) {
        for (const e of c.env ?? [])
          if (isSecretName(e.name)) expect(e.valueFrom?.secretKeyRef, e.name).toBeDefined();
      }
    }
    // systemd and the image: none set.
    const set = [
      ...Object.values(units).flatMap((unit) => Object.keys(unitEnvironment(unit.Service!.Environment))),
      ...Object.keys(dockerfileEnv(read('Dockerfile'))),
    ];
    expect(set.filter(isSecretName)).toEqual([]);
    // Nothing that looks like a credential anywhere, comments included; no password in a URL value.
    const files = [
      'compose.yaml',
      'Dockerfile',
      '.dockerignore',
      ...globSync('deploy/**/*.{yaml,service,example}', { cwd: ROOT }),
    ];
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const file of files) {
      const text = read(file);
      for (const pattern of CREDENTIAL_PATTERNS) expect(text, `${file}: ${pattern}`).not.toMatch(pattern);
      expect(randomLooking(text), file).toEqual([]);
    }
    for (const [name, env] of Object.entries({ ...processEnvironments(), example: ENV_EXAMPLE })) {
      expect(env.REDIS_URL ?? '', name).not.toMatch(/\/\/[^/@]*:[^/@]+@/);
    }
  });
});

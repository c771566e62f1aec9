// A prompt becomes a spec, or a base spec and a change become a changed spec: the model answers, the
// answer is validated (schema, then the timeline's semantic checks) and reviewed on a few rendered
// frames, and whatever is wrong goes back to the model, up to AI_MAX_REPAIRS times within a time
// budget. Only a valid spec leaves here; review findings left after the last repair are recorded.
import { generateText, jsonSchema, Output } from 'ai';
import type { ModelMessage } from 'ai';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { parseSpec } from '../../shared/spec/validate.ts';
import type { SpecIssue } from '../../shared/spec/validate.ts';
import { semanticIssues } from '../../shared/timeline/check.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { renderCostOver } from '../engine/render-cost.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import { answerFormat } from './answer-format.ts';
import { listAssets } from './assets.ts';
import { applyEdit, changedPointers } from './edit-patch.ts';
import { fastReview } from './fast-review.ts';
import type { AuthoringFinding, AuthoringRecord } from '../../shared/protocol/authoring-record.ts';
import { editMessage, promptMessage, repairMessage, systemInstructions } from './instructions.ts';
import { AuthoringError, describeProviderError } from './provider-errors.ts';
import { languageModel } from './providers.ts';
import { callTokens } from './token-count.ts';
import type { ProviderSettings } from './providers.ts';

export type AuthoringRequest =
  { kind: 'prompt'; prompt: string } | { kind: 'edit'; base: VideoSpec; change: string };

export interface AuthoringLimits {
  /** Repairs after the first answer (AI_MAX_REPAIRS, default 2). */
  maxRepairs: number;
  /** The whole authoring, every attempt and review (AI_TIME_BUDGET). */
  budgetMs: number;
  /** One provider call (AI_REQUEST_TIMEOUT). */
  requestTimeoutMs: number;
  /** The AI SDK's retries of a 429 or 5xx, with backoff. */
  maxRetries: number;
  /** The largest render accepted (MAX_RENDER_PIXELS); a spec over it goes back to the model. */
  maxRenderPixels?: number | undefined;
}

export const DEFAULT_AUTHORING_LIMITS: AuthoringLimits = {
  maxRepairs: 2,
  budgetMs: 180_000,
  requestTimeoutMs: 90_000,
  maxRetries: 2,
};

export interface AuthoringResult {
  spec: VideoSpec;
  /** For an edit: the JSON pointers that differ from the base. */
  changes: string[] | undefined;
  record: AuthoringRecord;
}

export interface AuthorSpecOptions {
  request: AuthoringRequest;
  provider: ProviderSettings;
  project: RenderProjectContext;
  aspect?: AspectName | undefined;
  format: string;
  limits?: Partial<AuthoringLimits>;
  signal?: AbortSignal | undefined;
  /** Told when the work moves between asking the model and reviewing its answer. */
  onStage?: (stage: 'authoring' | 'reviewing', attempt: number) => void;
  /** Told of what a provider said it ignored (an unsupported setting): a log line, not an error. */
  onWarning?: (message: string) => void;
}

// The AI SDK prints provider warnings to the console by default; Kino reports them through onWarning.
globalThis.AI_SDK_LOG_WARNINGS = false;

/** A provider warning in one line. */
function warningText(warning: {
  type: string;
  feature?: string;
  setting?: string;
  details?: string;
  message?: string;
}): string {
  const what = warning.feature ?? warning.setting ?? warning.type;
  const why = warning.details ?? warning.message;
  return why ? `${what}: ${why}` : what;
}

/** Schema errors, else the timeline's semantic errors, else the cost over the limit, of a candidate. */
function validate(
  candidate: unknown,
  aspect: AspectName | undefined,
  maxRenderPixels: number | undefined,
): { spec: VideoSpec } | { errors: SpecIssue[] } {
  const parsed = parseSpec(candidate);
  if (!parsed.ok) return { errors: parsed.issues };
  const issues = semanticIssues(parsed.spec);
  if (issues.length > 0) return { errors: issues };
  const over =
    maxRenderPixels === undefined
      ? undefined
      : renderCostOver(resolveTimeline(parsed.spec, aspect ? { aspect } : {}), maxRenderPixels);
  return over ? { errors: [{ pointer: '/scenes', message: over }] } : { spec: parsed.spec };
}

export async function authorSpec(options: AuthorSpecOptions): Promise<AuthoringResult> {
  const limits = { ...DEFAULT_AUTHORING_LIMITS, ...options.limits };
  const { request, provider } = options;
  const started = performance.now();
  const budget = AbortSignal.timeout(limits.budgetMs);
  const signal = options.signal ? AbortSignal.any([options.signal, budget]) : budget;
  const model = languageModel(provider);
  const context = {
    assets: await listAssets(options.project.assetsDir),
    aspect: options.aspect,
    format: options.format,
  };
  const format = answerFormat(provider.name, request.kind);
  const system = systemInstructions(context, request.kind, format.specSchemaInInstructions);
  const output = Output.object({ schema: jsonSchema(format.schema) });
  const messages: ModelMessage[] = [
    {
      role: 'user',
      content:
        request.kind === 'prompt' ? promptMessage(request.prompt) : editMessage(request.base, request.change),
    },
  ];
  const record: AuthoringRecord = {
    provider: provider.name,
    model: provider.model,
    attempts: 0,
    repairs: [],
    remainingFindings: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    durationMs: 0,
  };
  let best: { spec: VideoSpec; findings: AuthoringFinding[] } | undefined;
  const warned = new Set<string>();
  let lastErrors: SpecIssue[] = [];

  for (let attempt = 1; attempt <= 1 + limits.maxRepairs; attempt++) {
    if (budget.aborted) break;
    options.onStage?.('authoring', attempt);
    record.attempts = attempt;
    let answer: unknown;
    let answerText: string;
    try {
      const result = await generateText({
        model,
        system,
        messages,
        output,
        providerOptions: format.providerOptions,
        maxRetries: limits.maxRetries,
        timeout: limits.requestTimeoutMs,
        abortSignal: signal,
      });
      record.usage.inputTokens += result.usage.inputTokens ?? 0;
      record.usage.outputTokens += result.usage.outputTokens ?? 0;
      for (const warning of result.warnings ?? []) {
        const text = `${provider.name}: ${warningText(warning)}`;
        if (!warned.has(text)) options.onWarning?.(text);
        warned.add(text);
      }
      if (result.finishReason === 'content-filter') {
        throw new AuthoringError('provider_refused', `${provider.name} declined to write this video`);
      }
      answer = format.read(result.output);
      answerText = result.text;
    } catch (error) {
      if (budget.aborted && !options.signal?.aborted) break;
      if (options.signal?.aborted) throw error;
      const failure = describeProviderError(
        error,
        provider.name,
        limits.requestTimeoutMs,
        callTokens(system, messages, format.schema),
      );
      if (failure.code !== 'authoring_failed') throw failure;
      // An answer that is not JSON is one more thing to repair.
      answer = undefined;
      answerText = '';
      lastErrors = [{ pointer: '', message: 'the answer was not one JSON object' }];
    }

    let errors: SpecIssue[] = lastErrors;
    let findings: AuthoringFinding[] = [];
    if (answer !== undefined) {
      const candidate = request.kind === 'edit' ? applyEdit(request.base, answer) : { value: answer };
      const checked =
        'errors' in candidate ? candidate : validate(candidate.value, options.aspect, limits.maxRenderPixels);
      if ('errors' in checked) {
        errors = checked.errors;
      } else {
        errors = [];
        options.onStage?.('reviewing', attempt);
        findings = await fastReview(checked.spec, options.project, options.aspect, signal);
        if (!best || findings.length < best.findings.length) best = { spec: checked.spec, findings };
      }
    }
    lastErrors = errors;
    if (errors.length === 0 && findings.length === 0) break;
    if (attempt === 1 + limits.maxRepairs || budget.aborted) {
      if (errors.length > 0 || findings.length > 0) record.repairs.push({ errors, findings });
      break;
    }
    record.repairs.push({ errors, findings });
    messages.push(
      // The answer as read (a strict answer's nulls dropped): the same content in fewer tokens.
      { role: 'assistant', content: answer === undefined ? answerText || 'null' : JSON.stringify(answer) },
      { role: 'user', content: repairMessage(request.kind, errors, findings) },
    );
  }

  record.durationMs = Math.round(performance.now() - started);
  if (!best) {
    const why = budget.aborted
      ? ` within the ${Math.round(limits.budgetMs / 1000)} s budget (AI_TIME_BUDGET)`
      : '';
    throw new AuthoringError(
      'authoring_failed',
      `${provider.name} gave no valid spec in ${record.attempts} attempt${record.attempts === 1 ? '' : 's'}${why}: ${lastErrors
        .slice(0, 5)
        .map((error) => `${error.pointer || '/'}: ${error.message}`)
        .join('; ')}`,
      { errors: lastErrors, authoring: record },
    );
  }
  record.remainingFindings = best.findings;
  return {
    spec: best.spec,
    changes: request.kind === 'edit' ? changedPointers(request.base, best.spec) : undefined,
    record,
  };
}

// Which AI providers this process may author with, read from the environment, and the AI SDK model
// for one of them. A provider is configured when its key (or, for the OpenAI-compatible one, its
// base URL) is set. Keys stay in ProviderSettings: nothing here puts one in a message or a log.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';

export const AI_PROVIDERS = ['openai', 'anthropic', 'google', 'openai-compatible'] as const;
export type AiProviderName = (typeof AI_PROVIDERS)[number];

/** Current models that write good JSON at a sensible price; each is overridden by its *_MODEL variable. */
export const DEFAULT_MODELS: Record<Exclude<AiProviderName, 'openai-compatible'>, string> = {
  openai: 'gpt-5.5',
  anthropic: 'claude-sonnet-5-5',
  google: 'gemini-3.5-flash',
};

export interface ProviderSettings {
  name: AiProviderName;
  apiKey: string | undefined;
  /** Another endpoint speaking the provider's API (a proxy, a gateway, a local stand-in). */
  baseURL: string | undefined;
  model: string;
}

export interface AiSettings {
  providers: ProviderSettings[];
  /** AI_PROVIDER, or the only provider configured. */
  defaultProvider: AiProviderName | undefined;
}

export class AiConfigError extends Error {
  override name = 'AiConfigError';
}

const value = (env: NodeJS.ProcessEnv, name: string) => (env[name] === '' ? undefined : env[name]);

/** The providers the environment configures; throws AiConfigError on a contradiction. */
export function readAiSettings(env: NodeJS.ProcessEnv): AiSettings {
  const providers: ProviderSettings[] = [];
  const keyed = (name: Exclude<AiProviderName, 'openai-compatible'>, keyVar: string, prefix: string) => {
    const apiKey = value(env, keyVar);
    if (apiKey === undefined) return;
    providers.push({
      name,
      apiKey,
      baseURL: value(env, `${prefix}_BASE_URL`),
      model: value(env, `${prefix}_MODEL`) ?? DEFAULT_MODELS[name],
    });
  };
  keyed('openai', 'OPENAI_API_KEY', 'OPENAI');
  keyed('anthropic', 'ANTHROPIC_API_KEY', 'ANTHROPIC');
  keyed('google', 'GOOGLE_GENERATIVE_AI_API_KEY', 'GOOGLE_GENERATIVE_AI');
  const compatibleUrl = value(env, 'OPENAI_COMPATIBLE_BASE_URL');
  if (compatibleUrl !== undefined) {
    const model = value(env, 'OPENAI_COMPATIBLE_MODEL');
    if (model === undefined) {
      throw new AiConfigError(
        'OPENAI_COMPATIBLE_BASE_URL is set but OPENAI_COMPATIBLE_MODEL is not: name the model the endpoint serves (e.g. "llama3.3" for Ollama)',
      );
    }
    providers.push({
      name: 'openai-compatible',
      apiKey: value(env, 'OPENAI_COMPATIBLE_API_KEY'),
      baseURL: compatibleUrl,
      model,
    });
  }
  const chosen = value(env, 'AI_PROVIDER');
  if (chosen !== undefined) {
    if (!(AI_PROVIDERS as readonly string[]).includes(chosen)) {
      throw new AiConfigError(`AI_PROVIDER "${chosen}" is not one of ${AI_PROVIDERS.join(', ')}`);
    }
    if (!providers.some((provider) => provider.name === chosen)) {
      throw new AiConfigError(
        `AI_PROVIDER is "${chosen}", but that provider is not configured: ${configuredList(providers)}`,
      );
    }
  }
  return {
    providers,
    defaultProvider:
      (chosen as AiProviderName | undefined) ?? (providers.length === 1 ? providers[0]!.name : undefined),
  };
}

export function configuredList(providers: readonly ProviderSettings[]): string {
  return providers.length === 0
    ? 'none is configured'
    : `configured: ${providers.map((provider) => provider.name).join(', ')}`;
}

export type ProviderChoice =
  { ok: true; provider: ProviderSettings } | { ok: false; status: 400 | 503; message: string };

/** The provider a request names (else the default), with its model or the one the request names. */
export function chooseProvider(
  settings: AiSettings,
  requested: { provider?: string | undefined; model?: string | undefined } = {},
): ProviderChoice {
  if (settings.providers.length === 0) {
    return {
      ok: false,
      status: 503,
      message:
        'no AI provider is configured on this server: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY or OPENAI_COMPATIBLE_BASE_URL',
    };
  }
  const name = requested.provider ?? settings.defaultProvider;
  if (name === undefined) {
    return {
      ok: false,
      status: 400,
      message: `several AI providers are configured and AI_PROVIDER names none: name one with "provider" (${configuredList(settings.providers)})`,
    };
  }
  const provider = settings.providers.find((candidate) => candidate.name === name);
  if (!provider) {
    return {
      ok: false,
      status: 400,
      message: `AI provider "${name}" is not configured here (${configuredList(settings.providers)})`,
    };
  }
  return { ok: true, provider: requested.model ? { ...provider, model: requested.model } : provider };
}

/** The AI SDK model for a provider's settings. */
export function languageModel(provider: ProviderSettings): LanguageModel {
  const endpoint = provider.baseURL === undefined ? {} : { baseURL: provider.baseURL };
  switch (provider.name) {
    case 'openai':
      return createOpenAI({ apiKey: provider.apiKey, ...endpoint })(provider.model);
    case 'anthropic':
      return createAnthropic({ apiKey: provider.apiKey, ...endpoint })(provider.model);
    case 'google':
      return createGoogleGenerativeAI({ apiKey: provider.apiKey, ...endpoint })(provider.model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: provider.baseURL!,
        ...(provider.apiKey === undefined ? {} : { apiKey: provider.apiKey }),
        supportsStructuredOutputs: true,
      })(provider.model);
  }
}

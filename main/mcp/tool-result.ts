// What a tool answers: structured content with a short text summary, or a tool error with a message
// the model can act on. Errors the service raises for people (problems with field errors, input
// errors) keep their message; anything unexpected is logged and answered without internals.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { hidePaths } from '../http/hidden-paths.ts';
import type { HiddenPath } from '../http/hidden-paths.ts';
import { Problem } from '../http/problem.ts';
import { describeError } from '../engine/describe-error.ts';
import { failureOf } from '../engine/failures.ts';

/** An error whose message is meant for the caller, as it is. */
export class ToolFailure extends Error {
  override name = 'ToolFailure';
}

export function toolSuccess<T extends Record<string, unknown>>(summary: string, structured: T) {
  return {
    content: [{ type: 'text' as const, text: summary }],
    structuredContent: structured,
  };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Where failures are reported, and the server folders a remote caller must not learn. */
export interface FailureContext {
  log: Logger;
  /** Absolute paths replaced by a name in messages (HTTP: the render project, the data dir). */
  hiddenPaths?: readonly HiddenPath[];
}

/** The message a caller gets for `error`. */
export function failureMessage(error: unknown, context: FailureContext): string {
  return hidePaths(callerMessage(error, context.log), context.hiddenPaths);
}

/** The message written for the caller that `error` carries, or undefined for an unexpected error. */
export function callerFacingMessage(error: unknown): string | undefined {
  if (error instanceof ToolFailure) return error.message;
  if (error instanceof Problem) {
    const fields = error.errors?.map((field) => `${field.pointer || '/'}: ${field.message}`) ?? [];
    return [error.message, ...fields].join('\n');
  }
  // Failures the input caused carry a message written for whoever made the input.
  if (failureOf(error)?.cause === 'input') {
    return describeError(error).replace(/^kino: /, '');
  }
  return undefined;
}

export const UNEXPECTED_FAILURE =
  'the tool failed unexpectedly (the server logged the details); try again, or report it';

function callerMessage(error: unknown, log: Logger): string {
  const message = callerFacingMessage(error);
  if (message !== undefined) return message;
  log.error({ err: error }, 'MCP tool failed');
  return UNEXPECTED_FAILURE;
}

/** Runs a tool's handler, turning what it throws into a tool error. */
export async function runTool(
  context: FailureContext,
  handler: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await handler();
  } catch (error) {
    return toolError(failureMessage(error, context));
  }
}

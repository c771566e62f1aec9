// The tools that need no render: validate_code (TypeScript diagnostics of a composition, never run),
// spec_to_code (a spec printed as builder source) and get_video_spec_schema. The first two cost what
// the caller sends (a type-level bomb, a 500-scene spec), so they run in a look process.
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { videoSpecJsonSchema } from '../../shared/spec/json-schema.ts';
import { MAX_COMPOSITION_SOURCE } from '../composition/type-check.ts';
import type { McpHost } from './host.ts';
import { LOOK_TIMEOUT_MS, TYPE_CHECK_TIMEOUT_MS, runLook } from './look-runner.ts';
import { runTool, toolSuccess } from './tool-result.ts';

const DiagnosticSchema = z.object({
  line: z.number().int().describe('1-based.'),
  column: z.number().int().describe('1-based.'),
  message: z.string(),
  code: z.number().int().describe("TypeScript's error number (2322 is TS2322)."),
  severity: z.enum(['error', 'warning']),
});

export function registerCodeTools(server: McpServer, host: McpHost): void {
  const pure = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

  server.registerTool(
    'validate_code',
    {
      title: 'Type-check a composition',
      description:
        "Type-checks a composition written with Kino's builder API (import { video, scene, text, … } from 'kino'; export default video(…)) with the TypeScript compiler, as the studio's editor does. The code is never run. No diagnostics means it type-checks.",
      inputSchema: z.object({
        code: z.string().min(1).max(MAX_COMPOSITION_SOURCE).describe('The composition source (TypeScript).'),
      }),
      outputSchema: z.object({ ok: z.boolean(), diagnostics: z.array(DiagnosticSchema) }),
      annotations: pure,
    },
    (args, mcp) =>
      runTool(host, async () => {
        const { diagnostics } = await host.looks.run(
          () =>
            runLook(
              { op: 'validate', code: args.code },
              { signal: mcp.mcpReq.signal, timeoutMs: TYPE_CHECK_TIMEOUT_MS, log: host.log },
            ),
          mcp.mcpReq.signal,
        );
        const errors = diagnostics.filter((d) => d.severity === 'error');
        const summary =
          diagnostics.length === 0
            ? 'The composition type-checks.'
            : `${errors.length} error${errors.length === 1 ? '' : 's'}:\n` +
              diagnostics.map((d) => `${d.line}:${d.column} TS${d.code} ${d.message}`).join('\n');
        return toolSuccess(summary, { ok: errors.length === 0, diagnostics });
      }),
  );

  server.registerTool(
    'spec_to_code',
    {
      title: 'Print a spec as builder code',
      description:
        "Prints a video spec as a composition in Kino's builder API (TypeScript), the same video as code, to keep editing as a program; a template (a spec with variables) prints as template({...}, (v) => video(...)). No model, no render.",
      inputSchema: z.object({
        spec: z.record(z.string(), z.unknown()).describe('A video spec (JSON).'),
      }),
      outputSchema: z.object({ code: z.string() }),
      annotations: pure,
    },
    (args, mcp) =>
      runTool(host, async () => {
        const { code } = await host.looks.run(
          () =>
            runLook(
              { op: 'print', spec: args.spec },
              { signal: mcp.mcpReq.signal, timeoutMs: LOOK_TIMEOUT_MS, log: host.log },
            ),
          mcp.mcpReq.signal,
        );
        return toolSuccess(code, { code });
      }),
  );

  const schemaText = JSON.stringify(videoSpecJsonSchema());
  server.registerTool(
    'get_video_spec_schema',
    {
      title: 'The video spec JSON Schema',
      description:
        'The JSON Schema (draft 2020-12) every spec is validated against: each element, field, unit and default. get_doc "spec" is the same as a guide for writing one.',
      outputSchema: z.object({ schema: z.record(z.string(), z.unknown()) }),
      annotations: pure,
    },
    () =>
      runTool(host, async () =>
        toolSuccess(schemaText, { schema: JSON.parse(schemaText) as Record<string, unknown> }),
      ),
  );
}

// list_docs, search_docs and get_doc: the guide, references and examples an agent writes from.
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { KinoDocs } from './docs.ts';
import type { McpHost } from './host.ts';
import { ToolFailure, runTool, toolSuccess } from './tool-result.ts';

const DocEntrySchema = z.object({ name: z.string(), title: z.string(), summary: z.string() });

export function registerDocTools(server: McpServer, host: McpHost, docs: KinoDocs): void {
  const pure = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

  server.registerTool(
    'list_docs',
    {
      title: 'List the docs',
      description:
        'Every doc: how to use these tools (mcp/workflow), the spec guide (spec, spec/<section>), worked examples (example/…), the builder API for code (code), and the compositions of the render project (project/<key>). Read one with get_doc.',
      outputSchema: z.object({ docs: z.array(DocEntrySchema) }),
      annotations: pure,
    },
    () =>
      runTool(host, async () => {
        const entries = (await docs.all()).map(({ name, title, summary }) => ({ name, title, summary }));
        const text = entries.map((doc) => `${doc.name}: ${doc.summary}`).join('\n');
        return toolSuccess(text, { docs: entries });
      }),
  );

  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        'Finds the docs that best match a query (words, a field or element name), with the passage that matched.',
      inputSchema: z.object({
        query: z.string().min(1).max(500).describe('What to look for, e.g. "keyframes opacity".'),
      }),
      outputSchema: z.object({
        results: z.array(DocEntrySchema.extend({ score: z.number(), excerpt: z.string() })),
      }),
      annotations: pure,
    },
    (args) =>
      runTool(host, async () => {
        const results = await docs.search(args.query);
        const text =
          results.length === 0
            ? `No doc matches "${args.query}"; list_docs lists them all.`
            : results.map((hit) => `${hit.name}: ${hit.excerpt.replace(/\s+/g, ' ')}`).join('\n\n');
        return toolSuccess(text, { results });
      }),
  );

  server.registerTool(
    'get_doc',
    {
      title: 'Read a doc',
      description:
        'One doc by its name from list_docs, e.g. "spec", "spec/animation", "mcp/workflow", "project/stats".',
      inputSchema: z.object({ name: z.string().min(1).max(200) }),
      outputSchema: DocEntrySchema.extend({ text: z.string() }),
      annotations: pure,
    },
    (args) =>
      runTool(host, async () => {
        const doc = await docs.get(args.name);
        if (!doc) {
          const names = (await docs.all()).map((d) => d.name);
          throw new ToolFailure(`no doc named "${args.name}"; the docs are: ${names.join(', ')}`);
        }
        return toolSuccess(doc.text, { ...doc });
      }),
  );
}

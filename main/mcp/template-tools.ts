// list_templates, and the `variables` argument that render and look tools take for a template.
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MAX_STRING_VALUE, MAX_VARIABLES, VariablesSchema } from '../../shared/spec/variable-schema.ts';
import type { McpHost } from './host.ts';
import { runTool, toolSuccess } from './tool-result.ts';

export const TemplateValuesArgument = z
  .record(z.string(), z.union([z.string().max(MAX_STRING_VALUE), z.number(), z.boolean()]))
  .refine((values) => Object.keys(values).length <= MAX_VARIABLES, `at most ${MAX_VARIABLES} variables`)
  .describe(
    'For a template (a spec with "variables", or a key list_templates shows): a value per variable, e.g. {"author": "Ada", "price": 19}. Unset ones take their defaults.',
  );

const TemplateSchema = z.object({
  key: z.string(),
  kind: z.enum(['spec', 'composition']),
  title: z.string().optional(),
  variables: VariablesSchema,
});

export function registerTemplateTools(server: McpServer, host: McpHost): void {
  server.registerTool(
    'list_templates',
    {
      title: 'List the templates',
      description:
        'The render project\'s templates: keys whose video is filled in from variables. Each variable has a type (string, number, boolean, color, image, clip), a default (else it is required) and limits. Render one with render_composition {"key", "variables"}; look at it first with render_frame {"key", "variables"}.',
      outputSchema: z.object({ templates: z.array(TemplateSchema), unavailable: z.array(z.string()) }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    () =>
      runTool(host, async () => {
        const listing = await host.service.keys.templates();
        for (const failure of listing.failures) {
          host.log.warn(
            { key: failure.key, reason: failure.message },
            'a key could not be read for the template list',
          );
        }
        const lines = listing.templates.map((template) => {
          const variables = Object.entries(template.variables).map(
            ([name, variable]) =>
              `${name} (${variable.type}${variable.default === undefined ? ', required' : `, default ${JSON.stringify(variable.default)}`})`,
          );
          return `${template.key}: ${variables.join(', ')}`;
        });
        const text = lines.length > 0 ? lines.join('\n') : 'The render project has no templates.';
        return toolSuccess(text, {
          templates: listing.templates,
          unavailable: listing.failures.map((failure) => failure.key),
        });
      }),
  );
}

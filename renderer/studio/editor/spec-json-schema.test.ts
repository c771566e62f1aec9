import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { videoSpecJsonSchema } from '../../../shared/spec/json-schema.ts';
import { allowVariables, editorSpecSchema } from './spec-json-schema.ts';

describe('the editor schema of a spec', () => {
  it('is the published schema for a spec that is no template', () => {
    const schema = videoSpecJsonSchema();
    expect(editorSpecSchema(schema, false)).toBe(schema);
  });

  it('lets a template put a variable reference where a value goes, keeping the docs for hover', () => {
    const node = {
      type: 'object',
      properties: { size: { type: 'number', description: 'Font size.' } },
      additionalProperties: false,
    };
    expect(allowVariables(node).properties).toEqual({
      size: {
        description: 'Font size.',
        anyOf: [{ type: 'number' }, { $ref: '#/$defs/KinoVariableUse' }],
      },
    });
  });

  it('keeps the declarations as they are and defines the reference', () => {
    const schema = videoSpecJsonSchema();
    const template = editorSpecSchema(schema, true) as {
      properties: Record<string, unknown>;
      $defs: Record<string, unknown>;
    };
    expect(template.properties.variables).toEqual((schema.properties as Record<string, unknown>).variables);
    expect(template.$defs.KinoVariableUse).toMatchObject({ required: ['var'] });
  });

  it('accepts a JSON template with {"var"} references where whole values go', () => {
    const template = {
      kinoSpec: 1,
      title: 'Quote: {{author}}',
      variables: {
        author: { type: 'string', default: 'Ada' },
        accent: { type: 'color', default: '#f59e0b' },
        photo: { type: 'image', default: 'asset:photo.jpg' },
      },
      scenes: [
        {
          duration: '2s',
          background: { type: 'image', src: { var: 'photo' }, fit: 'cover' },
          elements: [
            { type: 'text', text: '{{author}}', color: { var: 'accent' } },
            { type: 'rect', width: 120, height: 6, fill: { var: 'accent' } },
          ],
        },
      ],
    };
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(
      editorSpecSchema(videoSpecJsonSchema(), true),
    );
    expect(validate(template), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });
});

// The `variables` field as JSON carries it on the wire (render API, workspace jobs): a value per
// template variable, checked against the declarations when the template is bound.
import { MAX_STRING_VALUE, MAX_VARIABLES, VARIABLE_NAME_PATTERN } from '../spec/variable-schema.ts';

export const VariableValuesSchema = {
  type: 'object',
  maxProperties: MAX_VARIABLES,
  propertyNames: { pattern: VARIABLE_NAME_PATTERN.source },
  additionalProperties: {
    anyOf: [{ type: 'string', maxLength: MAX_STRING_VALUE }, { type: 'number' }, { type: 'boolean' }],
  },
} as const;

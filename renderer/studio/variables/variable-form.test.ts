import { describe, expect, it } from 'vitest';
import type { Variables } from '../../../shared/spec/variable-schema.ts';
import { resolveVariableValues } from '../../../shared/spec/variables.ts';
import {
  controlOf,
  declarationHint,
  entryShown,
  pickerColor,
  valueProblems,
  valuesOf,
} from './variable-form.ts';

const DECLARED: Variables = {
  author: { type: 'string', default: 'Edsger W. Dijkstra', maxLength: 10, description: 'Who said it.' },
  rating: { type: 'number', default: 4.8, min: 0, max: 5 },
  showLogo: { type: 'boolean', default: true },
  accent: { type: 'color', default: '#f59e0b' },
  photo: { type: 'image' },
};

describe('the variables form', () => {
  it('gives each type its control', () => {
    expect(Object.values(DECLARED).map(controlOf)).toEqual(['text', 'number', 'checkbox', 'color', 'media']);
  });

  it('offers a choice as a menu, whose picked text reads as the declared type', () => {
    const columns: Variables = { columns: { type: 'number', options: [1, 2, 3], default: 2 } };
    expect(controlOf(columns.columns!)).toBe('choice');
    expect(declarationHint(columns.columns!)).toBe('number · 3 choices · default 2');
    expect(valuesOf(columns, { columns: '3' })).toEqual({ columns: 3 });
    expect(valueProblems(columns, { columns: '4' })).toEqual({
      columns: 'variable "columns" (number): must be one of 1, 2, 3',
    });
  });

  it('shows the default until a value is typed', () => {
    expect(entryShown(DECLARED.rating!, {}, 'rating')).toBe('4.8');
    expect(entryShown(DECLARED.showLogo!, {}, 'showLogo')).toBe(true);
    expect(entryShown(DECLARED.photo!, {}, 'photo')).toBe('');
    expect(entryShown(DECLARED.rating!, { rating: '3' }, 'rating')).toBe('3');
  });

  it('reads typed text as the declared type, and sends only edited, declared values', () => {
    expect(valuesOf(DECLARED, { rating: '3.5', showLogo: false, author: 'Ada', gone: 'x' })).toEqual({
      rating: 3.5,
      showLogo: false,
      author: 'Ada',
    });
    expect(valuesOf(undefined, { author: 'Ada' })).toEqual({});
  });

  it('says what is wrong in the words the render gives', () => {
    const entries = { author: 'Grace Brewster Hopper', rating: '9', photo: 'asset:me.jpg' };
    const problems = valueProblems(DECLARED, entries);
    expect(problems).toEqual({
      author: 'variable "author" (string): must be at most 10 characters',
      rating: 'variable "rating" (number): must be at most 5',
    });
    // The very messages the render's own check gives for the same values.
    const render = resolveVariableValues(DECLARED, valuesOf(DECLARED, entries));
    expect(render.ok ? [] : render.issues.map((issue) => issue.message)).toEqual(Object.values(problems));
  });

  it('names a required value left empty and a number that is not one', () => {
    expect(valueProblems({ photo: { type: 'image' } }, {})).toEqual({
      photo: 'variable "photo" (image) is required: the template gives it no default',
    });
    expect(valueProblems(DECLARED, { rating: 'lots' }).rating).toBe(
      'variable "rating" (number): expected a number, got "lots"',
    );
  });

  it('offers the colour picker only for a hex colour', () => {
    expect(pickerColor('#F90')).toBe('#ff9900');
    expect(pickerColor(' #2dd4bf ')).toBe('#2dd4bf');
    expect(pickerColor('rebeccapurple')).toBeUndefined();
  });

  it('sums a declaration up in one line', () => {
    expect(declarationHint(DECLARED.rating!)).toBe('number · ≥ 0 · ≤ 5 · default 4.8');
    expect(declarationHint(DECLARED.photo!)).toBe('image · required');
  });
});

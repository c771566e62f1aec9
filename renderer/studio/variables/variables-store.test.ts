import { beforeEach, describe, expect, it } from 'vitest';
import type { Variables } from '../../../shared/spec/variable-schema.ts';
import { jobVariables, useVariables } from './variables-store.ts';

const DECLARED: Variables = {
  author: { type: 'string', default: 'Ada' },
  users: { type: 'number', default: 10, min: 0 },
};

describe('the variables store', () => {
  beforeEach(() => useVariables.getState().reset());

  it('adds nothing to a job until a value is edited', () => {
    expect(jobVariables(DECLARED)).toEqual({});
  });

  it('sends the edited values as their declared types, and forgets a reset one', () => {
    const { set, reset } = useVariables.getState();
    set('author', 'Grace');
    set('users', '52000');
    expect(jobVariables(DECLARED)).toEqual({ variables: { author: 'Grace', users: 52000 } });
    reset('author');
    expect(jobVariables(DECLARED)).toEqual({ variables: { users: 52000 } });
  });

  it('sends nothing to a composition that declares no variables', () => {
    useVariables.getState().set('author', 'Grace');
    expect(jobVariables(undefined)).toEqual({});
  });
});

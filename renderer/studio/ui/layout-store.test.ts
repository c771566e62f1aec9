import { beforeEach, describe, expect, it } from 'vitest';
import { useLayout } from './layout-store.ts';

const initial = useLayout.getState();
beforeEach(() => useLayout.setState(initial, true));

describe('layout store', () => {
  it('opens on Review', () => {
    expect(useLayout.getState().tab).toBe('review');
  });

  it('switches the side panel to the tab asked for, and back', () => {
    useLayout.getState().setTab('inspect');
    expect(useLayout.getState().tab).toBe('inspect');
    useLayout.getState().setTab('export');
    expect(useLayout.getState().tab).toBe('export');
    useLayout.getState().setTab('review');
    expect(useLayout.getState().tab).toBe('review');
  });
});

// Which side panel is showing. Inspect frame switches to Inspect; Ctrl/Cmd+R to Export; a spec error
// about a value of the form to Variables.
import { create } from 'zustand';

export type SideTab = 'review' | 'inspect' | 'export' | 'variables';

interface LayoutState {
  tab: SideTab;
  setTab(tab: SideTab): void;
}

export const useLayout = create<LayoutState>((set) => ({
  tab: 'review',
  setTab: (tab) => set({ tab }),
}));

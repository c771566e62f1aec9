// Which side panel is showing. Inspect frame switches to Inspect; Ctrl/Cmd+R to Export.
import { create } from 'zustand';

export type SideTab = 'review' | 'inspect' | 'export';

interface LayoutState {
  tab: SideTab;
  setTab(tab: SideTab): void;
}

export const useLayout = create<LayoutState>((set) => ({
  tab: 'review',
  setTab: (tab) => set({ tab }),
}));

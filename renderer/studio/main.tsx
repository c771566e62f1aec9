import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/theme.css';
import './ui/layout.css';
import './ui/preview.css';
import './ui/timeline.css';
import './ui/side-panel.css';
import './ui/welcome.css';
import './ui/words.css';
import './ui/variables.css';
import { App } from './app/App.tsx';
import { applyErrorPanelColors } from './ui/error-colors.ts';

applyErrorPanelColors(document.documentElement);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

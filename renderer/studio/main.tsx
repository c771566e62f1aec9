import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/theme.css';
import './ui/layout.css';
import './ui/preview.css';
import './ui/side-panel.css';
import './ui/welcome.css';
import './ui/variables.css';
import { App } from './app/App.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

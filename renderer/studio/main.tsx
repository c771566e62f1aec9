import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './shell/theme.css';
import './shell/layout.css';
import { App } from './shell/App.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

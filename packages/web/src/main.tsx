// First: starts the landing screen's data before the rest of the entry is evaluated.
import { consoleClient, consoleQueryClient, toastRelay } from './app/early-start.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element');
createRoot(root).render(
  <StrictMode>
    <App client={consoleClient} queryClient={consoleQueryClient} toastRelay={toastRelay} />
  </StrictMode>,
);

import './ui/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/AppProviders';
import { recoverFromPreloadErrors } from './app/chunkRecovery';
import { createAppRouter } from './app/router';
import { prefetchRoute } from './app/routes';
import { runStartup } from './app/startup';
import { registerServiceWorkerAfterLoad } from './serviceWorker/register';
import { applyDesignTokens } from './ui/tokens';

applyDesignTokens();
recoverFromPreloadErrors();
prefetchRoute(location.pathname);
await runStartup();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);

// The shell's service worker (offline start-up); the dev server has no hashed shell to precache.
if (import.meta.env.PROD) registerServiceWorkerAfterLoad();

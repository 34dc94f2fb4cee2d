import type { RouteObject } from 'react-router';
import type { LazyPage } from './router.js';

// A fleet's rollouts (children of the fleet layout): planning one from a release, and one live.
export const rolloutRoutes = (lazyPage: LazyPage): RouteObject[] => [
  {
    path: 'rollouts/new',
    lazy: lazyPage(() => import('../features/rollouts/StartRolloutPage.js'), 'StartRolloutPage'),
  },
  {
    path: 'rollouts/:rolloutId',
    lazy: lazyPage(() => import('../features/rollouts/RolloutPage.js'), 'RolloutPage'),
  },
];

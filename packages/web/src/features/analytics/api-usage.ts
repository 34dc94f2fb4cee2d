import type { FlotillaClient } from '@flotilla/sdk/create-client';
import {
  type UsageKind,
  usageEventsPerPost,
  usageNamePattern,
} from '@flotilla/shared/analytics/usage';
import { featureUseEvent } from '../../api/feature-use.js';
import { readCookieChoice } from '../../ui/cookie-choice.js';

// How long counted uses wait to be sent together.
const flushDelayMs = 10_000;

type UsageEvent = { kind: UsageKind; name: string };

// Counting needs the user's yes to analytics in the cookie banner, read at each use (the answer
// may change at any time).
const consented = (): boolean => readCookieChoice()?.analytics === true;

const createCounter = (client: FlotillaClient) => {
  let queue: UsageEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let enabled: boolean | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    const events = queue.slice(0, usageEventsPerPost);
    queue = queue.slice(usageEventsPerPost);
    if (events.length === 0) return;
    client
      .request<unknown>({
        method: 'POST',
        path: '/analytics/v1/events',
        body: { events },
        auth: false,
      })
      .catch(() => undefined);
    if (queue.length > 0) timer = setTimeout(flush, flushDelayMs);
  };
  return {
    async count(event: UsageEvent): Promise<void> {
      if (!consented() || !usageNamePattern.test(event.name)) return;
      // The server says whether it counts at all (GET /config's analytics).
      enabled ??= await client.config().then(
        (config) => typeof config.analytics === 'string' && config.analytics !== '',
        () => false,
      );
      if (!enabled) return;
      queue.push(event);
      if (queue.length >= usageEventsPerPost) flush();
      else timer ??= setTimeout(flush, flushDelayMs);
    },
    flush,
  };
};

let counter: ReturnType<typeof createCounter> | undefined;

export type RouterLike = {
  state: { location: { pathname: string }; matches: { route: { path?: string } }[] };
  subscribe(listener: (state: RouterLike['state']) => void): () => void;
};

// The route pattern of the page shown (/fleets/:fleetId), never the address with ids in it.
const patternOf = (state: RouterLike['state']): string | undefined =>
  state.matches.findLast((match) => match.route.path !== undefined)?.route.path;

// First-party analytics: counts each page shown by its route pattern and each named feature use
// (features/analytics on the server keeps daily totals, nothing about who). The returned function
// stops counting.
export const startUsageCounting = (client: FlotillaClient, router: RouterLike): (() => void) => {
  counter = createCounter(client);
  const active = counter;
  let last = '';
  const onState = (state: RouterLike['state']): void => {
    const pattern = patternOf(state);
    if (pattern === undefined || state.location.pathname === last) return;
    last = state.location.pathname;
    void active.count({ kind: 'page', name: pattern });
  };
  onState(router.state);
  const unsubscribe = router.subscribe(onState);
  const onHide = (): void => active.flush();
  // Named feature uses, announced by the features' data layers (api/feature-use.ts).
  const onFeature = (event: Event): void => {
    if (event instanceof CustomEvent && typeof event.detail === 'string') {
      void active.count({ kind: 'feature', name: event.detail });
    }
  };
  window.addEventListener('pagehide', onHide);
  window.addEventListener(featureUseEvent, onFeature);
  return () => {
    unsubscribe();
    window.removeEventListener('pagehide', onHide);
    window.removeEventListener(featureUseEvent, onFeature);
    active.flush();
  };
};

// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { countFeatureUse } from '../../api/feature-use.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import { cookieChoiceKey, writeCookieChoice } from '../../ui/cookie-choice.js';
import { type RouterLike, startUsageCounting } from './api-usage.js';

const router: RouterLike = {
  state: {
    location: { pathname: '/fleets/12' },
    matches: [{ route: { path: '/fleets/:fleetId' } }],
  },
  subscribe: () => () => undefined,
};

// A console on a server that counts: every event posted to /analytics/v1/events, in order.
const countingConsole = () => {
  const api = createFakeApi({}, {});
  api.on('GET', '/config', () => ({ status: 200, body: { analytics: 'first-party' } }));
  const sent: unknown[] = [];
  api.on('POST', '/analytics/v1/events', (body) => {
    if (
      typeof body === 'object' &&
      body !== null &&
      'events' in body &&
      Array.isArray(body.events)
    ) {
      sent.push(...body.events);
    }
    return { status: 204, body: undefined };
  });
  return { api, sent };
};

// The counter sends on page hide (or every 10 s): hide the page until what was counted went out.
const flushed = (sent: unknown[]) => {
  window.dispatchEvent(new Event('pagehide'));
  return sent;
};

afterEach(() => window.localStorage.removeItem(cookieChoiceKey));

describe('usage counting in the console', () => {
  it('counts the page by its route pattern and the named feature uses', async () => {
    writeCookieChoice({ essentials: true, analytics: true });
    const { api, sent } = countingConsole();
    const stop = startUsageCounting(api.client, router);
    countFeatureUse('create-fleet');
    await expect
      .poll(() => flushed(sent))
      .toEqual([
        { kind: 'page', name: '/fleets/:fleetId' },
        { kind: 'feature', name: 'create-fleet' },
      ]);
    stop();
    // Stopped: a later use is not counted.
    countFeatureUse('device-action');
    window.dispatchEvent(new Event('pagehide'));
    expect(sent).toHaveLength(2);
  });

  it('counts nothing without the yes to analytics in the cookie banner', async () => {
    writeCookieChoice({ essentials: true, analytics: false });
    const { api, sent } = countingConsole();
    const stop = startUsageCounting(api.client, router);
    countFeatureUse('create-fleet');
    // The user says yes later: only what is used from then on is counted.
    writeCookieChoice({ essentials: true, analytics: true });
    countFeatureUse('invite-member');
    await expect.poll(() => flushed(sent)).toEqual([{ kind: 'feature', name: 'invite-member' }]);
    stop();
  });
});

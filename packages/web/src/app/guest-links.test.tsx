// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { invitationToken } from '../test-support/invitation-tokens.js';
import { createFakeApi } from '../test-support/fake-api.js';
import { renderConsoleAt } from '../test-support/render-console.js';

// Every console link a guest can reach leads to a page, never to "Page not found".
// The crawl starts where a guest arrives (the root, the sign-in pages, the links mail carries)
// and follows every in-app link of every page it renders, as a guest.

afterEach(cleanup);

const entryPoints = [
  '/',
  '/login',
  `/organization/invitation/${invitationToken()}`,
  '/user/reset-password/code1',
  '/user/verify-email/pending',
  // Pages the command-line tool and OAuth applications send a browser to (a guest logs in).
  '/login/cli/http%253A%252F%252F127.0.0.1%253A5000%252Fauth',
  '/login/oauth/abc123?state=x',
];

const maxPages = 40;

type Visit = { finalPath: string; notFound: boolean; links: string[] };

const visit = async (path: string): Promise<Visit> => {
  const api = createFakeApi({}, null);
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deployment: null, helpLinks: { docs: '/docs/agent', gettingStarted: null } },
  }));
  const { router } = renderConsoleAt(api.client, path);
  // A page is there once its (lazy) screen shows a heading and the router is done moving.
  await screen.findAllByRole('heading', { level: 1 }, { timeout: 15_000 });
  await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
  const links = [...document.querySelectorAll('a[href]')]
    .map((anchor) => anchor.getAttribute('href') ?? '')
    .filter((href) => href.startsWith('/') && !href.startsWith('//'));
  const result = {
    finalPath: `${router.state.location.pathname}${router.state.location.search}`,
    notFound: screen.queryByRole('heading', { name: 'Page not found' }) !== null,
    links,
  };
  cleanup();
  return result;
};

describe('links a guest can reach', { timeout: 120_000 }, () => {
  it('all lead to pages of the console', async () => {
    const queue = [...entryPoints];
    const seen = new Set(queue);
    const dead: string[] = [];
    const visited: string[] = [];
    while (queue.length > 0 && visited.length < maxPages) {
      const path = queue.shift() ?? '';
      const page = await visit(path);
      visited.push(`${path} -> ${page.finalPath}`);
      if (page.notFound) dead.push(path);
      for (const link of page.links) {
        if (!seen.has(link)) {
          seen.add(link);
          queue.push(link);
        }
      }
    }
    expect(dead).toEqual([]);
    // The crawl went past the entry points (sign-up, password reset...).
    expect(visited.some((line) => line.startsWith('/signup'))).toBe(true);
    expect(visited.some((line) => line.startsWith('/password-reset'))).toBe(true);
    expect(queue).toEqual([]);
  });

  it('would notice a dead link', async () => {
    expect((await visit('/no-such-page')).notFound).toBe(true);
  });
});

// @vitest-environment jsdom
import type {
  Connectivity,
  ConnectivityListener,
  ConnectivityState,
} from '@flotilla/sdk/connectivity';
import type { StatusAnswer } from '@flotilla/shared/status/status';
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { HelpMenu, helpLinksOf } from './HelpMenu.js';

afterEach(cleanup);

// GET /config answers `config`; the connectivity is a stand-in the test switches to lost.
const clientWith = (config: unknown, status?: StatusAnswer) => {
  let state: ConnectivityState = { lost: false, failures: 0 };
  const listeners = new Set<ConnectivityListener>();
  const retryNow = vi.fn();
  const connectivity: Connectivity = {
    getState: () => state,
    subscribe: (listener: ConnectivityListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    retryNow,
    start: () => () => undefined,
  };
  const api = createFakeApi();
  api.on('GET', '/config', () => ({ status: 200, body: config }));
  if (status) api.on('GET', '/status/v1', () => ({ status: 200, body: status }));
  const client = Object.assign(api.client, { connectivity });
  const setLost = (lost: boolean) => {
    state = { lost, failures: lost ? 3 : 0 };
    for (const listener of listeners) listener(state);
  };
  return { client, setLost, retryNow };
};

const Where = () => <p data-testid="where">{useLocation().pathname}</p>;

// What GET /config answers with every link configured (paths are console pages).
const allLinks = {
  gettingStarted: '/docs/getting-started',
  docs: '/docs/agent',
  featureRequests: 'https://ideas.example.com/flotilla',
  forums: 'https://forums.example.com',
  help: 'mailto:help@example.com',
};

describe('helpLinksOf', () => {
  it('keeps only configured entries with a usable URL, in menu order', () => {
    expect(helpLinksOf({ deployment: null })).toEqual([]);
    expect(helpLinksOf({ helpLinks: null })).toEqual([]);
    expect(
      helpLinksOf({
        helpLinks: {
          forums: 'https://forums.example.com',
          docs: '/docs/agent',
          gettingStarted: '//evil.example/start',
          help: 'javascript:alert(1)',
          featureRequests: 42,
        },
      }),
    ).toEqual([
      { label: 'Documentation', href: '/docs/agent', inApp: true },
      { label: 'Forums', href: 'https://forums.example.com', inApp: false },
    ]);
  });

  it('leaves out the entries the server sends as null', () => {
    expect(
      helpLinksOf({
        helpLinks: { ...allLinks, featureRequests: null, forums: null, help: null },
      }).map((link) => link.label),
    ).toEqual(['Getting started', 'Documentation']);
  });
});

describe('HelpMenu', () => {
  it('shows the configured links and the API status, amber once the connection is lost', async () => {
    const user = userEvent.setup();
    const { client, setLost, retryNow } = clientWith({
      deployment: null,
      helpLinks: { gettingStarted: 'https://example.com/start' },
    });
    renderWithClient(client, <HelpMenu />);
    await user.click(
      screen.getByRole('button', { name: 'Help and status: All systems operational' }),
    );
    const link = await screen.findByRole('menuitem', { name: 'Getting started' });
    expect(link.getAttribute('href')).toBe('https://example.com/start');
    expect(screen.queryByRole('menuitem', { name: 'Forums' })).toBeNull();
    act(() => setLost(true));
    await user.click(screen.getByRole('menuitem', { name: /Connection problems/ }));
    expect(retryNow).toHaveBeenCalled();
    // The drawer closes (its transition ends) and the header shows the new status.
    expect(
      await screen.findByRole('button', { name: 'Help and status: Connection problems' }),
    ).toBeTruthy();
  });

  it('shows the five entries; console pages open in the app, other URLs in a new tab', async () => {
    const user = userEvent.setup();
    const { client } = clientWith({
      deployment: null,
      helpLinks: { ...allLinks, help: 'https://help.example.com/' },
    });
    renderWithClient(
      client,
      <>
        <HelpMenu />
        <Where />
      </>,
    );
    const open = async () =>
      user.click(await screen.findByRole('button', { name: /Help and status/ }));
    await open();
    await screen.findByRole('menuitem', { name: 'Getting started' });
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Getting started',
      'Documentation',
      'Feature requests',
      'Forums',
      'Help',
      'All systems operationalAPI status',
    ]);
    for (const [name, href] of [
      ['Feature requests', 'https://ideas.example.com/flotilla'],
      ['Forums', 'https://forums.example.com'],
      ['Help', 'https://help.example.com/'],
    ] as const) {
      const item = screen.getByRole('menuitem', { name });
      expect(item.getAttribute('href')).toBe(href);
      expect(item.getAttribute('target')).toBe('_blank');
      expect(item.getAttribute('rel')).toBe('noopener noreferrer');
    }
    const docs = screen.getByRole('menuitem', { name: 'Documentation' });
    expect(docs.getAttribute('href')).toBe('/docs/agent');
    expect(docs.getAttribute('target')).toBeNull();
    await user.click(docs);
    expect(screen.getByTestId('where').textContent).toBe('/docs/agent');
    await open();
    await user.click(await screen.findByRole('menuitem', { name: 'Getting started' }));
    expect(screen.getByTestId('where').textContent).toBe('/docs/getting-started');
  });

  it('warns of known issues before anything else, linking to the status page', async () => {
    const user = userEvent.setup();
    const outage: StatusAnswer = {
      status: 'degraded',
      checkedAt: '2026-11-30T10:00:00.000Z',
      externalUrl: null,
      components: [{ id: 'builder', name: 'Builder', status: 'degraded', detail: 'Slow' }],
      notices: [
        {
          id: 3,
          kind: 'incident',
          severity: 'minor',
          title: 'Builds are slow',
          message: '',
          createdAt: '2026-11-30T09:00:00.000Z',
          resolvedAt: null,
        },
      ],
    };
    renderWithClient(clientWith({ deployment: null }, outage).client, <HelpMenu />);
    await user.click(screen.getByRole('button', { name: /Help and status/ }));
    const warning = await screen.findByRole('status', { name: 'Known issues' });
    expect(warning.textContent).toContain('Some systems are degraded: Builds are slow.');
    expect(within(warning).getByRole('link', { name: 'status page' }).getAttribute('href')).toBe(
      '/status',
    );
  });

  it('shows no warning while every system is operational', async () => {
    const user = userEvent.setup();
    renderWithClient(clientWith({ deployment: null }).client, <HelpMenu />);
    await user.click(screen.getByRole('button', { name: /Help and status/ }));
    await screen.findByRole('menuitem', { name: /API status/ });
    expect(screen.queryByRole('status', { name: 'Known issues' })).toBeNull();
  });

  it('offers only the status without configured links', async () => {
    const user = userEvent.setup();
    renderWithClient(clientWith({ deployment: null }).client, <HelpMenu />);
    await user.click(screen.getByRole('button', { name: /Help and status/ }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'All systems operationalAPI status',
    ]);
  });
});

// @vitest-environment jsdom
import type { ConnectivityListener, ConnectivityState } from '@flotilla/sdk/connectivity';
import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient } from '../fleets/application/test-helpers.js';
import { HelpMenu, helpLinksOf } from './HelpMenu.js';

afterEach(cleanup);

// Only config and connectivity: all the menu uses of the client.
const clientWith = (config: unknown) => {
  let state: ConnectivityState = { lost: false, failures: 0 };
  const listeners = new Set<ConnectivityListener>();
  const retryNow = vi.fn();
  const connectivity = {
    getState: () => state,
    subscribe: (listener: ConnectivityListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    retryNow,
    start: () => () => undefined,
  };
  const client = { config: async () => config, connectivity } as unknown as FlotillaClient;
  const setLost = (lost: boolean) => {
    state = { lost, failures: lost ? 3 : 0 };
    for (const listener of listeners) listener(state);
  };
  return { client, setLost, retryNow };
};

describe('helpLinksOf', () => {
  it('keeps only configured entries with a usable URL, in menu order', () => {
    expect(helpLinksOf({ deployment: null })).toEqual([]);
    expect(
      helpLinksOf({
        helpLinks: {
          forums: 'https://forums.example.com',
          documentation: '/docs',
          help: 'javascript:alert(1)',
          featureRequests: 42,
        },
      }),
    ).toEqual([
      { label: 'Documentation', href: '/docs' },
      { label: 'Forums', href: 'https://forums.example.com' },
    ]);
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
    expect(
      screen.getByRole('button', { name: 'Help and status: Connection problems' }),
    ).toBeTruthy();
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

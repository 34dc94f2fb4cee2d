// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { ToastProvider } from '../../ui/toasts.js';
import MenuList from '@mui/material/MenuList';
import { usePublicConfig } from './api.js';
import { ChatEntry } from './ChatEntry.js';

// Chatwoot's widget is a third-party script that cannot run here: the test plays its part with a
// strict fake of the two calls the console makes (chatwootSDK.run, then $chatwoot.toggle once
// the widget says it is ready).

const widget = {
  provider: 'chatwoot',
  url: 'https://chat.example.com',
  websiteToken: 'tok3nT0ken',
};

afterEach(() => {
  cleanup();
  // The widget loads once per page: each test starts as a fresh page.
  vi.resetModules();
  Reflect.deleteProperty(window, 'chatwootSDK');
  Reflect.deleteProperty(window, '$chatwoot');
  for (const script of document.querySelectorAll('script')) script.remove();
});

// Shows once GET /config has answered (the entry reads the same query, in the same render).
const ConfigShown = () => (usePublicConfig().data ? <p>Config read</p> : null);

const renderEntry = (chatWidget: unknown) => {
  const api = createFakeApi();
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, chatWidget } }));
  const opened: string[] = [];
  renderWithClient(
    api.client,
    <ToastProvider>
      <ConfigShown />
      <MenuList>
        <ChatEntry onOpen={() => opened.push('drawer closed')} />
      </MenuList>
    </ToastProvider>,
  );
  return opened;
};

const widgetScript = async (): Promise<HTMLScriptElement> => {
  let found: HTMLScriptElement | null = null;
  await waitFor(() => {
    found = document.querySelector<HTMLScriptElement>(
      'script[src="https://chat.example.com/packs/js/sdk.js"]',
    );
    expect(found).not.toBeNull();
  });
  if (!found) throw new Error('no widget script');
  return found;
};

describe('Chat with us', () => {
  it('is not offered without a configured widget', async () => {
    renderEntry(null);
    await screen.findByText('Config read');
    expect(screen.queryByRole('menuitem', { name: 'Chat with us' })).toBeNull();
  });

  it("loads Chatwoot's widget from the operator's server on demand and opens it", async () => {
    const user = userEvent.setup();
    const opened = renderEntry(widget);
    expect(document.querySelector('script')).toBeNull();
    await user.click(await screen.findByRole('menuitem', { name: 'Chat with us' }));
    const script = await widgetScript();
    const runs: unknown[] = [];
    const toggles: string[] = [];
    Reflect.set(window, 'chatwootSDK', {
      run: (options: unknown) => {
        runs.push(options);
        Reflect.set(window, '$chatwoot', { toggle: (state: string) => toggles.push(state) });
        window.dispatchEvent(new Event('chatwoot:ready'));
      },
    });
    script.dispatchEvent(new Event('load'));
    await waitFor(() => expect(toggles).toEqual(['open']));
    expect(runs).toEqual([{ websiteToken: 'tok3nT0ken', baseUrl: 'https://chat.example.com' }]);
    expect(opened).toEqual(['drawer closed']);
  });

  it('says so when the widget cannot be loaded, and tries again on the next click', async () => {
    const user = userEvent.setup();
    const opened = renderEntry(widget);
    await user.click(await screen.findByRole('menuitem', { name: 'Chat with us' }));
    (await widgetScript()).dispatchEvent(new Event('error'));
    expect(await screen.findByText('Could not load the chat; try again later')).toBeTruthy();
    expect(opened).toEqual([]);
    await user.click(await screen.findByRole('menuitem', { name: 'Chat with us' }));
    await waitFor(() => expect(document.querySelectorAll('script')).toHaveLength(2));
  });
});

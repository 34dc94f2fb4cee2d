// @vitest-environment jsdom
import { createFlotillaClient } from '@flotilla/sdk/create-client';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { DocsPage } from './DocsPage.js';

afterEach(cleanup);

const readme = [
  '# Flotilla',
  '',
  'Open the **console**.',
  '',
  'A paragraph wrapped',
  'at eighty columns.',
  '',
  '| variable | default |',
  '|---|---|',
  '| `PORT` | `8080` |',
  '',
  '```sh',
  'npm start',
  '```',
].join('\n');

const markdown = (text: string): Response =>
  new Response(text, { status: 200, headers: { 'content-type': 'text/markdown; charset=utf-8' } });

const renderPage = (path: string, fetch: typeof globalThis.fetch) => {
  const client = createFlotillaClient({ fetch });
  renderWithClient(
    client,
    <Routes>
      <Route path="/docs/:page" element={<DocsPage />} />
      <Route path="/404" element={<p>Page not found</p>} />
    </Routes>,
    path,
  );
};

describe('DocsPage', () => {
  it('shows a loading state, then the page with its title', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetch = vi.fn(
      (_input: RequestInfo | URL) =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    renderPage('/docs/getting-started', fetch);
    expect(screen.getByRole('heading', { level: 1, name: 'Getting started' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Loading the documentation' })).toBeTruthy();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/docs/v1/getting-started');
    answer(markdown(readme));
    expect((await screen.findByText('console')).tagName).toBe('STRONG');
    expect(screen.queryByRole('status')).toBeNull();
    const code = screen.getByText('npm start').closest('pre');
    expect(code && getComputedStyle(code).overflowX).toBe('auto');
    // The README's wrapped lines flow as one paragraph, no hard break.
    const paragraph = screen.getByText('A paragraph wrapped at eighty columns.');
    expect(paragraph.tagName).toBe('P');
    expect(paragraph.querySelector('br')).toBeNull();
    // The table, which the Markdown subset lacks, as preformatted text.
    expect(screen.getByText(/\| `PORT` \| `8080` \|/).tagName).toBe('PRE');
    expect(document.title).toMatch(/^Getting started \| Flotilla/);
    expect(screen.getByRole('link', { name: 'Getting started' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(screen.getByRole('link', { name: 'Device agent' }).getAttribute('href')).toBe(
      '/docs/agent',
    );
  });

  it('shows the error and retries', async () => {
    const user = userEvent.setup();
    const fetch = vi
      .fn<(input: RequestInfo | URL) => Promise<Response>>()
      .mockResolvedValueOnce(
        new Response('No documentation page named agent', {
          status: 404,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        }),
      )
      .mockResolvedValueOnce(markdown('The agent *runs* on devices.'));
    renderPage('/docs/agent', fetch);
    expect((await screen.findByRole('alert')).textContent).toMatch(/documentation page|not found/i);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect((await screen.findByText('runs')).tagName).toBe('EM');
    expect(screen.getByRole('heading', { level: 1, name: 'Device agent' })).toBeTruthy();
  });

  it('sends an unknown page to /404 without asking the server', async () => {
    const fetch = vi.fn<(input: RequestInfo | URL) => Promise<Response>>();
    renderPage('/docs/nope', fetch);
    expect(await screen.findByText('Page not found')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});

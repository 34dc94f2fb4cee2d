// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { ChangelogButton } from './ChangelogButton.js';
import { changelogSeenKey } from './changelog-state.js';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

const changelog = '# Changelog\n\n## 2.0.0 — 2026-11-24\n\n- Deploy links\n';

const setup = (version: string) => {
  const api = createFakeApi({}, null);
  api.on('GET', '/CHANGELOG.md', () => ({ status: 200, text: changelog }));
  renderWithClient(api.client, <ChangelogButton version={version} />);
  return { api, user: userEvent.setup() };
};

describe('ChangelogButton', { timeout: 30_000 }, () => {
  it('records the version on a first visit and opens nothing', async () => {
    setup('2.0.0');
    expect(
      screen.getByRole('button', { name: 'Changelog, version 2.0.0, dashboard 31.3.9' }),
    ).toBeTruthy();
    await waitFor(() => expect(window.localStorage.getItem(changelogSeenKey)).toBe('2.0.0'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a bubble for a newer minor version and the changelog on click; closing reads it', async () => {
    window.localStorage.setItem(changelogSeenKey, '2.0.0');
    const { user } = setup('2.1.0');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(
      screen.getByRole('button', { name: 'Changelog, version 2.1.0, dashboard 31.3.9, new' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Changelog' });
    expect(await within(dialog).findByText('Deploy links')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(window.localStorage.getItem(changelogSeenKey)).toBe('2.1.0');
    expect(
      screen.getByRole('button', { name: 'Changelog, version 2.1.0, dashboard 31.3.9' }),
    ).toBeTruthy();
  });

  it("shows Flotilla's version beside the dashboard behaviour it implements", async () => {
    window.localStorage.setItem(changelogSeenKey, '2.0.0');
    const { user } = setup('2.0.0');
    const button = screen.getByRole('button', { name: /^Changelog, version 2\.0\.0/ });
    expect(button.textContent).toBe('v2.0.0dashboard 31.3.9');
    expect(button.title).toBe('Flotilla 2.0.0, implementing dashboard 31.3.9');
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Changelog' });
    expect(within(dialog).getByText('Flotilla 2.0.0 · implements dashboard 31.3.9')).toBeTruthy();
  });

  it('opens by itself when the last version read has a lower major', async () => {
    window.localStorage.setItem(changelogSeenKey, '1.9.0');
    setup('2.0.0');
    const dialog = await screen.findByRole('dialog', { name: 'Changelog' });
    expect(await within(dialog).findByText('Deploy links')).toBeTruthy();
  });

  it('says when the changelog cannot be loaded', async () => {
    window.localStorage.setItem(changelogSeenKey, '1.0.0');
    const api = createFakeApi({}, null);
    api.on('GET', '/CHANGELOG.md', () => ({ status: 404, text: 'No changelog' }));
    renderWithClient(api.client, <ChangelogButton version="2.0.0" />);
    expect(await screen.findByText('Could not load the changelog')).toBeTruthy();
  });
});

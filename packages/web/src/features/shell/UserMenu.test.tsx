// @vitest-environment jsdom
import { createHash } from 'node:crypto';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { avatarUrlOf } from './avatar.js';
import { UserMenu } from './UserMenu.js';

afterEach(cleanup);

const renderMenu = (avatarUrl: string | null) => {
  const api = createFakeApi();
  const configReads: string[] = [];
  api.on('GET', '/config', () => {
    configReads.push('config');
    return { status: 200, body: { deployment: null, avatarUrl } };
  });
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: ' Ada@X.test ' },
  }));
  renderWithClient(api.client, <UserMenu />, '/fleets');
  return { configReads };
};

describe('the account menu avatar', () => {
  it('is the initial when the operator enabled no avatar service', async () => {
    const { configReads } = renderMenu(null);
    const button = screen.getByRole('button', { name: 'Account menu' });
    await waitFor(() => expect(button.textContent).toBe('A'));
    await waitFor(() => expect(configReads).toHaveLength(1));
    expect(button.querySelector('img')).toBeNull();
  });

  it('is the picture of the address hash from the enabled service', async () => {
    renderMenu('https://avatars.example.test/avatar/{hash}?d=404');
    const hash = createHash('sha256').update('ada@x.test').digest('hex');
    const button = screen.getByRole('button', { name: 'Account menu' });
    await waitFor(() =>
      expect(button.querySelector('img')?.getAttribute('src')).toBe(
        `https://avatars.example.test/avatar/${hash}?d=404`,
      ),
    );
  });
});

describe('avatarUrlOf', () => {
  it('puts the SHA-256 of the trimmed, lower-cased address in the template', async () => {
    const hash = createHash('sha256').update('grace@example.com').digest('hex');
    expect(await avatarUrlOf('https://a.test/{hash}.png', ' Grace@Example.com')).toBe(
      `https://a.test/${hash}.png`,
    );
  });
});

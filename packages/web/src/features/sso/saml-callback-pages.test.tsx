// @vitest-environment jsdom
import { samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { userProfileRow } from '../../test-support/profile-fixtures.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);
const firstLoad = { timeout: 15_000 };

const renderAt = (path: string, session: FakeSession | null) => {
  const api = createFakeApi({ user_profile: [userProfileRow()], application: [] }, session);
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, helpLinks: {} } }));
  const { router } = renderConsoleAt(api.client, path);
  return { api, router };
};

describe('the SAML callback pages', { timeout: 60_000 }, () => {
  it('send a guest with a merge code to log in first, and back after', async () => {
    const { router } = renderAt('/saml/callback/merge?code=c1&shouldMergeWith=ADA%40x.test', null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), firstLoad);
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(
      '/saml/callback/merge?code=c1&shouldMergeWith=ADA%40x.test',
    );
    expect(await screen.findByText(samlSignInMessages.mergeRequiresLogin)).toBeTruthy();
  });

  it('link the signed-in account only with both consents', async () => {
    const user = userEvent.setup();
    const { api } = renderAt('/saml/callback/merge?code=c1&shouldMergeWith=ADA%40x.test', {});
    const bodies: unknown[] = [];
    api.on('POST', '/auth/saml/finalize', (body) => {
      bodies.push(body);
      return { status: 400, text: samlSignInMessages.invalidCode };
    });
    const link = await screen.findByRole('button', { name: 'Link accounts' }, firstLoad);
    expect(link).toHaveProperty('disabled', true);
    const [first, second] = screen.getAllByRole('checkbox');
    if (!first || !second) throw new Error('two consent boxes expected');
    await user.click(first);
    expect(link).toHaveProperty('disabled', true);
    await user.click(second);
    await user.click(link);
    await waitFor(() => expect(bodies).toEqual([{ code: 'c1' }]));
    // The refusal shows on the page, which stays.
    expect((await screen.findAllByRole('alert')).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Link accounts' })).toBeTruthy();
  });

  it('refuse a merge for another e-mail address', async () => {
    const { api, router } = renderAt(
      '/saml/callback/merge?code=c1&shouldMergeWith=bob%40x.test',
      {},
    );
    expect(
      await screen.findByText(samlSignInMessages.mergeEmailMismatch, {}, firstLoad),
    ).toBeTruthy();
    expect(router.state.location.pathname).not.toBe('/saml/callback/merge');
    expect(api.writes).toEqual([]);
  });
});

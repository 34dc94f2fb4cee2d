// @vitest-environment jsdom
import { cliLoginPath } from '@flotilla/shared/auth/cli-login-target';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const renderAt = (
  path: string,
  session: FakeSession | null,
  cliLoginAllowedNetworks?: string[],
) => {
  const api = createFakeApi({ application: [] }, session);
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deployment: null, helpLinks: {}, cliLoginAllowedNetworks },
  }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  const { router } = renderConsoleAt(api.client, path);
  return { api, router };
};

const firstLoad = { timeout: 15_000 };
const callback = 'http://127.0.0.1:51234/auth';

describe('CliLoginPage', { timeout: 30_000 }, () => {
  it("posts the session token as the form field balena-cli reads, to the CLI's local server", async () => {
    const { api } = renderAt(cliLoginPath(callback), {});
    const form = await screen.findByRole(
      'form',
      { name: 'Authorize the command-line tool' },
      firstLoad,
    );
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe(callback);
    const fields = new FormData(form as HTMLFormElement);
    expect([...fields.keys()]).toEqual(['token']);
    expect(fields.get('token')).toBe(api.client.auth.getToken());
    expect(await screen.findByText('ada')).toBeTruthy();
    expect(screen.getByText('http://127.0.0.1:51234')).toBeTruthy();
    expect(screen.queryByText(/platform administrator account/)).toBeNull();
  });

  it('warns a platform administrator', async () => {
    renderAt(cliLoginPath(callback), { permissions: ['admin.home'] });
    expect(
      await screen.findByText(
        /signed in with a platform administrator account/,
        undefined,
        firstLoad,
      ),
    ).toBeTruthy();
  });

  it.each(['evil.example', '203.0.113.7'])(
    'sends a target at %s (neither this computer nor a private network) to /, saying why',
    async (host) => {
      const { router } = renderAt(cliLoginPath(`http://${host}:8000/auth`), {});
      expect(
        await screen.findByText(
          `The command-line tool can only be authorized on this computer (localhost) or a private network address, not ${host}. The operator can allow more networks with FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS.`,
          undefined,
          firstLoad,
        ),
      ).toBeTruthy();
      await waitFor(() => expect(router.state.location.pathname).toBe('/fleets'));
      expect(screen.queryByRole('form')).toBeNull();
    },
  );

  it("posts to a public address the operator's networks allow", async () => {
    const allowed = 'http://203.0.113.7:8000/auth';
    renderAt(cliLoginPath(allowed), {}, ['203.0.113.0/24']);
    const form = await screen.findByRole(
      'form',
      { name: 'Authorize the command-line tool' },
      firstLoad,
    );
    expect(form.getAttribute('action')).toBe(allowed);
  });

  it('asks a guest to log in first and comes back', async () => {
    const path = cliLoginPath(callback);
    const { router } = renderAt(path, null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), firstLoad);
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(path);
  });
});

// @vitest-environment jsdom
import { identityProviderMessages } from '@flotilla/shared/sso/identity-provider-rules';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { testUserId } from '../../test-support/fixtures.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const firstLoad = { timeout: 15_000 };
const certificateBody = 'MIIB'.padEnd(100, 'A');

// Acme (3), administered by the signed-in user, with its team "field" (21).
const acme = {
  id: 3,
  name: 'Acme',
  organization_membership: [
    {
      id: 1,
      user: { __id: testUserId },
      organization_membership_role: [{ name: 'administrator' }],
    },
  ],
  owns__team: [{ id: 21, name: 'field' }],
};

const metadata = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com/metadata">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificateBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

const provider = {
  id: 5,
  sso_identifier: 'acme-sso',
  entry_point: 'https://idp.example.com/sso',
  issuer: 'https://idp.example.com/metadata',
  certificate: `-----BEGIN CERTIFICATE-----\n${certificateBody}\n-----END CERTIFICATE-----`,
  identity_provider_membership: [
    { id: 90, organization: [{ id: 3, name: 'Acme' }], grants_access_to__team: [] },
  ],
};

const renderAt = (path: string, providers: FakeRow[] = [], accounts: FakeRow[] = []) => {
  const api = createFakeApi({
    identity_provider: providers,
    saml_account: accounts,
    organization: [acme],
    application: [],
  });
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, helpLinks: {} } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: {
      id: 70,
      actorType: 'user',
      actorTypeId: testUserId,
      username: 'ada',
      email: 'ada@x.test',
    },
  }));
  // A new provider, as /v7 then reads it (its first organization attached).
  api.shapeCreated('identity_provider', (body) => ({
    ...body,
    identity_provider_membership: [
      { id: 90, organization: [{ id: 3, name: 'Acme' }], grants_access_to__team: [] },
    ],
  }));
  const { router } = renderConsoleAt(api.client, path);
  return { api, router };
};

describe('the identity provider pages', { timeout: 60_000 }, () => {
  it('add a provider from imported metadata, with the rules of each field', async () => {
    const user = userEvent.setup();
    const { api } = renderAt('/identity-provider');
    await user.click(
      await screen.findByRole('button', { name: 'Add identity provider' }, firstLoad),
    );
    const identifier = await screen.findByRole('textbox', { name: /SSO identifier/ });
    await user.type(identifier, 'Acme SSO');
    await user.tab();
    expect(
      await screen.findByText(identityProviderMessages.ssoIdentifierInvalidCharacters),
    ).toBeTruthy();
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toHaveProperty('disabled', true);
    await user.clear(identifier);
    await user.type(identifier, 'acme-sso');

    const file = new File(['<not metadata/>'], 'idp.xml', { type: 'application/xml' });
    await user.upload(screen.getByLabelText('SAML metadata file'), file);
    expect(await screen.findByText(identityProviderMessages.metadataUnparsable)).toBeTruthy();
    await user.upload(
      screen.getByLabelText('SAML metadata file'),
      new File([metadata], 'idp.xml', { type: 'application/xml' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /Entry point/ })).toHaveProperty(
        'value',
        'https://idp.example.com/sso',
      ),
    );
    expect(screen.getByRole('textbox', { name: /Issuer/ })).toHaveProperty(
      'value',
      'https://idp.example.com/metadata',
    );
    // Still no organization chosen.
    expect(add).toHaveProperty('disabled', true);
    await user.click(await screen.findByRole('checkbox', { name: 'Acme' }));
    await user.click(add);
    await waitFor(() =>
      expect(api.writes.filter((write) => write.resource === 'identity_provider')).toHaveLength(1),
    );
    const [write] = api.writes;
    expect(write?.body).toMatchObject({
      sso_identifier: 'acme-sso',
      entry_point: 'https://idp.example.com/sso',
      issuer: 'https://idp.example.com/metadata',
      organization_id: 3,
    });
    expect(JSON.stringify(write?.body)).toContain('-----BEGIN CERTIFICATE-----\\nMIIB');
  });

  it('open the provider the user administers, and block its removal while it has SAML accounts', async () => {
    const { router } = renderAt(
      '/identity-provider',
      [provider],
      [{ id: 1, was_generated_by__identity_provider: { __id: 5 } }],
    );
    expect(
      await screen.findByText(identityProviderMessages.accountsExist, {}, firstLoad),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/identity-provider/5');
    expect(screen.getByRole('button', { name: 'Remove provider' })).toHaveProperty(
      'disabled',
      true,
    );
    // The last organization cannot be removed either.
    const organizations = screen.getByRole('table', { name: 'Organizations' });
    expect(within(organizations).getByRole('button', { name: 'Remove' })).toHaveProperty(
      'disabled',
      true,
    );
  });
});

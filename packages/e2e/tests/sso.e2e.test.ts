import { identityProviderMessages } from '@flotilla/shared/sso/identity-provider-rules';
import { type SamlTestIdp, startSamlTestIdp } from '@flotilla/server/test-support/saml-idp';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage, uniqueEmail } from '../support/browser.js';

// Enterprise single sign-on from the console: an organization administrator adds their SAML
// identity provider from its metadata, and a new employee signs in through it. The identity
// provider is real (server test support), running in this process and signing with its own key.
describe('single sign-on with SAML', () => {
  let browser: Browser;
  let idp: SamlTestIdp;
  let owner: ApiUser;
  const identifier = `e2e-${Date.now().toString(36)}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    idp = await startSamlTestIdp();
    owner = await registerUser('sso-owner');
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.close();
  });

  it('adds a provider from its metadata, and a new user signs in through it', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto('/identity-provider');
    await page.getByRole('button', { name: 'Add identity provider' }).click();
    const dialog = page.getByRole('dialog');
    const identifierField = dialog.getByRole('textbox', { name: 'SSO identifier' });
    await identifierField.fill('Not Valid');
    await dialog.getByRole('textbox', { name: 'Entry point' }).click();
    await dialog.getByText(identityProviderMessages.ssoIdentifierInvalidCharacters).waitFor();
    await identifierField.fill(identifier);
    await dialog.getByLabel('SAML metadata file').setInputFiles({
      name: 'idp-metadata.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(idp.metadataXml()),
    });
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Issuer' }).inputValue())
      .toBe(idp.entityId);
    await dialog.getByRole('checkbox').first().check();
    await page.screenshot({ path: 'data/e2e-screens/identity-provider-add.png', fullPage: true });
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Identity provider added').waitFor();
    await page.getByText(idp.ssoUrl).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/identity-provider.png', fullPage: true });

    // A new employee, from the login page's enterprise link.
    const email = uniqueEmail('sso-employee');
    idp.signInAs({ nameId: `employee-${identifier}`, email, displayName: 'New Employee' });
    const employee = await newPage(browser);
    await employee.goto('/login');
    await employee.getByRole('link', { name: 'Enterprise login (SSO)' }).click();
    await employee.getByRole('textbox', { name: 'SSO identifier' }).fill(identifier);
    await employee.getByRole('button', { name: 'Continue' }).click();
    await employee.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    await employee.context().close();
  });
});

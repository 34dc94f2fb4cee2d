// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeSession, sessionToken } from '../../test-support/fake-api.js';
import { answerBoot, renderConsoleAt } from '../../test-support/render-console.js';
import { ownUserRow, userProfileRow } from '../../test-support/profile-fixtures.js';
import { pendingProfileStep, rememberProfileStep } from './profile-step.js';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

const firstLoad = { timeout: 15_000 };

// A new account: nothing of the profile filled in yet.
const newProfile = {
  first_name: null,
  last_name: null,
  company: null,
  account_type: null,
};

const renderAt = (
  path: string,
  profile: Record<string, unknown>,
  session: FakeSession | null = {},
) => {
  const api = createFakeApi(
    {
      application: [],
      application_type: [],
      organization: [],
      user_profile: [userProfileRow(profile)],
      user: [ownUserRow()],
    },
    session,
  );
  answerBoot(api);
  const { router } = renderConsoleAt(api.client, path);
  return { api, router };
};

const fillProfile = async (): Promise<void> => {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/First name/, undefined, firstLoad), 'Grace');
  await user.type(screen.getByLabelText(/Last name/), 'Hopper');
  await user.type(screen.getByLabelText(/Company/), 'Navy');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
};

describe('sign-up, then the profile step, then the stored redirect', { timeout: 30_000 }, () => {
  it('goes from sign-up to /signup/profile, saves the profile, then to the redirect', async () => {
    const { api, router } = renderAt('/signup?redirect=%2Forgs', newProfile, null);
    api.on('GET', '/config', () => ({ status: 200, body: { recaptchaSiteKey: null } }));
    api.on('POST', '/user/register', () => ({ status: 200, text: sessionToken() }));
    const saved: unknown[] = [];
    api.on('PATCH', '/user/profile', (body) => {
      saved.push(body);
      return { status: 200, text: 'OK' };
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/E-mail/, undefined, firstLoad), 'g@x.test');
    await user.type(screen.getByLabelText(/Password/), 'a-good-password');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup/profile'), firstLoad);
    await fillProfile();
    await waitFor(() => expect(router.state.location.pathname).toBe('/orgs'), firstLoad);
    expect(saved).toEqual([
      {
        first_name: 'Grace',
        last_name: 'Hopper',
        company: 'Navy',
        account_type: null,
        has_disabled_newsletter: false,
      },
    ]);
    expect(pendingProfileStep(7)).toBeNull();
  });

  it('waits for the verification first when it is required', async () => {
    rememberProfileStep(7, '/fleets');
    const { router } = renderAt('/signup/profile', {
      ...newProfile,
      must_be_verified: true,
      is_verified: false,
    });
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/user/verify-email/pending'),
      firstLoad,
    );
  });

  it('is where the shell sends a new account once verified, until the profile is saved', async () => {
    rememberProfileStep(7, '/fleets');
    const { api, router } = renderAt('/', newProfile);
    api.on('PATCH', '/user/profile', () => ({ status: 200, text: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup/profile'), firstLoad);
    // The profile step's required fields.
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Continue' }, firstLoad));
    expect(screen.getAllByText(/required/i).length).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/signup/profile');
    await fillProfile();
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleets'), firstLoad);
  });

  it('is not asked of an existing user', async () => {
    const { router } = renderAt('/', newProfile);
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleets'), firstLoad);
  });

  it('says when the profile cannot be loaded, and retries', async () => {
    rememberProfileStep(7, '/fleets');
    const { api } = renderAt('/signup/profile', newProfile);
    api.refuseNextRead('user_profile', 'database unavailable', { status: 503 });
    const retry = await screen.findByRole('button', { name: 'Retry' }, firstLoad);
    await userEvent.setup().click(retry);
    expect(await screen.findByLabelText(/First name/, undefined, firstLoad)).toBeTruthy();
  });

  it('shows the save error and stays', async () => {
    rememberProfileStep(7, '/fleets');
    const { api, router } = renderAt('/signup/profile', newProfile);
    api.on('PATCH', '/user/profile', () => ({ status: 400, text: 'Company is too long' }));
    await fillProfile();
    expect(await screen.findByText('Request error: Company is too long')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signup/profile');
    expect(pendingProfileStep(7)).toBe('/fleets');
  });
});

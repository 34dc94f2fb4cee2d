import { createFlotillaClient, type FlotillaClient } from '@flotilla/sdk/create-client';
import type { Page } from 'playwright-core';
import { baseUrl, uniqueEmail } from './browser.js';

// Scenario data is set up through the API (our SDK), never through the database.
export type ApiUser = { client: FlotillaClient; email: string; password: string; userId: number };

// `apiUrl`: another server than the run's (a test that starts its own).
export const registerUser = async (prefix: string, apiUrl = baseUrl()): Promise<ApiUser> => {
  const client = createFlotillaClient({ apiUrl });
  const email = uniqueEmail(prefix);
  const password = 'a-good-password';
  const session = await client.auth.register({ email, password });
  return { client, email, password, userId: session.userId };
};

export const createFleet = async (owner: ApiUser, name: string): Promise<number> => {
  const [organization] = await owner.client.pine.get({
    resource: 'organization',
    options: { $select: ['id'], $orderby: { id: 'asc' }, $top: 1 },
  });
  const [deviceType] = await owner.client.pine.get({
    resource: 'device_type',
    options: { $select: ['id'], $filter: { slug: 'raspberrypi4-64' } },
  });
  const created = await owner.client.pine.post({
    resource: 'application',
    body: { app_name: name, organization: organization?.id, is_for__device_type: deviceType?.id },
  });
  return created.id;
};

export const addFleetMember = async (
  owner: ApiUser,
  fleetId: number,
  member: ApiUser,
  role: string,
): Promise<void> => {
  const [roleRow] = await owner.client.pine.get({
    resource: 'application_membership_role',
    options: { $select: ['id'], $filter: { name: role } },
  });
  await owner.client.pine.post({
    resource: 'user_application_membership',
    body: {
      user: member.userId,
      is_member_of__application: fleetId,
      application_membership_role: roleRow?.id,
    },
  });
};

export const logInAs = async (page: Page, user: ApiUser): Promise<void> => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
};

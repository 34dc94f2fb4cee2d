import type { Page } from 'playwright-core';

// Page objects: what a person does on the guest screens, in their words.
export const signupPage = (page: Page) => ({
  open: () => page.goto('/signup'),
  signUp: async (email: string, password: string) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
  },
  // The step after sign-up (and verification when required): /signup/profile.
  completeProfile: async (
    profile = { firstName: 'Test', lastName: 'User', company: 'Flotilla' },
  ) => {
    await page.waitForURL('**/signup/profile');
    await page.getByLabel('First name').fill(profile.firstName);
    await page.getByLabel('Last name').fill(profile.lastName);
    await page.getByLabel('Company').fill(profile.company);
    await page.getByRole('button', { name: 'Continue' }).click();
  },
  errorText: (text: string | RegExp) => page.getByText(text),
});

export const loginPage = (page: Page) => ({
  open: () => page.goto('/login'),
  logIn: async (email: string, password: string) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
  },
  alert: () => page.getByRole('alert'),
});

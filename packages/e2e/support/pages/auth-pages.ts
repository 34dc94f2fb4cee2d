import type { Page } from 'playwright-core';

// Page objects: what a person does on the guest screens, in their words.
export const signupPage = (page: Page) => ({
  open: () => page.goto('/signup'),
  signUp: async (email: string, password: string) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
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

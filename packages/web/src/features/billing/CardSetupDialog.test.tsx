// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerBilling } from '../../test-support/billing-fixtures.js';
import { acmeId } from '../../test-support/organization-fixtures.js';
import { renderAt } from '../../test-support/render-organization.js';
import { recaptchaOnloadName, type RecaptchaParameters } from '../../ui/recaptcha.js';
import type { CardForm } from './stripe-card-form.js';

// Stripe.js cannot run here (it loads from js.stripe.com and draws its card fields in Stripe's
// frames): a strict fake stands for the one module that talks to it. It records what it was
// mounted with and answers the confirmation the test sets.
const stripe = vi.hoisted(() => ({
  mounted: [] as { publishableKey: string; clientSecret: string }[],
  answer: { setupIntentId: 'seti_1' } as { setupIntentId: string } | { error: string },
  returnUrls: [] as string[],
}));
vi.mock('./stripe-card-form.js', () => ({
  mountCardForm: (publishableKey: string, clientSecret: string): Promise<CardForm> => {
    stripe.mounted.push({ publishableKey, clientSecret });
    return Promise.resolve({
      confirm: (returnUrl: string) => {
        stripe.returnUrls.push(returnUrl);
        return Promise.resolve(stripe.answer);
      },
      destroy: () => undefined,
    });
  },
}));

afterEach(cleanup);

const withCards = {
  billingEnabled: true,
  cardPayments: { provider: 'stripe', publishableKey: 'pk_test_console' },
};

const render = (config: Record<string, unknown>) => {
  const rendered = renderAt(`/orgs/${acmeId}/billing`, 'administrator', undefined, config);
  answerBilling(rendered.api, acmeId);
  const saved: unknown[] = [];
  const card = { type: 'card', card_type: 'visa', last_four: '4242' };
  rendered.api.on('GET', `/billing/v1/account/${acmeId}/info`, () => ({
    status: 200,
    body: saved.length > 0 ? card : {},
  }));
  const intents: unknown[] = [];
  rendered.api.on('POST', `/billing/v1/account/${acmeId}/setup-intent`, (body) => {
    intents.push(body);
    return { status: 200, body: { id: 'seti_1', client_secret: 'seti_1_secret_x' } };
  });
  rendered.api.on('PATCH', `/billing/v1/account/${acmeId}/info`, (body) => {
    saved.push(body);
    return { status: 200, body: card };
  });
  return { ...rendered, saved, intents };
};

describe('the card dialog', { timeout: 60_000 }, () => {
  it('is not offered when invoices are paid by bank transfer', async () => {
    render({ billingEnabled: true });
    expect(await screen.findByText(/Invoices are paid by bank transfer/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add card' })).toBeNull();
  });

  it('saves a card confirmed in Stripe’s form as the payment method', async () => {
    stripe.answer = { setupIntentId: 'seti_1' };
    const { user, saved } = render(withCards);
    await user.click(await screen.findByRole('button', { name: 'Add card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment method' });
    const save = within(dialog).getByRole('button', { name: 'Save payment method' });
    await waitFor(() => expect(save).toHaveProperty('disabled', false));
    expect(stripe.mounted.at(-1)).toEqual({
      publishableKey: 'pk_test_console',
      clientSecret: 'seti_1_secret_x',
    });
    await user.click(save);
    await waitFor(() => expect(saved).toEqual([{ token_id: 'seti_1' }]));
    expect(stripe.returnUrls.at(-1)).toMatch(new RegExp(`/orgs/${acmeId}/billing$`));
    expect(await screen.findByText('Payment method saved')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText(/Visa ending in 4242/)).toBeTruthy();
  });

  it('asks for the captcha before creating a setup intent, and sends its answer', async () => {
    stripe.answer = { setupIntentId: 'seti_1' };
    const { user, intents } = render({ ...withCards, recaptchaSiteKey: 'site-key-2' });
    await user.click(await screen.findByRole('button', { name: 'Add card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment method' });
    const widgets: RecaptchaParameters[] = [];
    // What Google's script does once loaded: define grecaptcha and call the onload callback.
    await act(async () => {
      Reflect.set(window, 'grecaptcha', {
        render: (_container: HTMLElement, parameters: RecaptchaParameters) =>
          widgets.push(parameters),
      });
      const onload: unknown = Reflect.get(window, recaptchaOnloadName);
      if (typeof onload === 'function') onload();
    });
    await waitFor(() => expect(widgets).toHaveLength(1));
    expect(widgets[0]?.sitekey).toBe('site-key-2');
    const save = within(dialog).getByRole('button', { name: 'Save payment method' });
    expect(save).toHaveProperty('disabled', true);
    expect(intents).toEqual([]);
    act(() => widgets[0]?.callback('answer-from-google'));
    await waitFor(() => expect(save).toHaveProperty('disabled', false));
    expect(intents).toEqual([{ 'g-recaptcha-response': 'answer-from-google' }]);
  });

  it('shows Stripe’s reason when the card is refused, and saves nothing', async () => {
    stripe.answer = { error: 'Your card was declined.' };
    const { user, saved } = render(withCards);
    await user.click(await screen.findByRole('button', { name: 'Add card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment method' });
    const save = within(dialog).getByRole('button', { name: 'Save payment method' });
    await waitFor(() => expect(save).toHaveProperty('disabled', false));
    await user.click(save);
    expect(await within(dialog).findByText('Your card was declined.')).toBeTruthy();
    expect(saved).toEqual([]);
  });

  it('saves the card on the return from the bank, then proposes the plan being chosen', async () => {
    const rendered = renderAt(
      `/orgs/${acmeId}/billing?setup_intent=seti_9&redirect_status=succeeded&then-propose-plan-tier=pilot-v2`,
      'administrator',
      undefined,
      withCards,
    );
    answerBilling(rendered.api, acmeId);
    const saved: unknown[] = [];
    rendered.api.on('PATCH', `/billing/v1/account/${acmeId}/info`, (body) => {
      saved.push(body);
      return { status: 200, body: { type: 'card', card_type: 'visa', last_four: '4242' } };
    });
    await waitFor(() => expect(saved).toEqual([{ token_id: 'seti_9' }]));
    expect(await screen.findByRole('dialog', { name: 'Upgrade plan' })).toBeTruthy();
  });

  it('asks for a card before a paid plan when none is on file, then offers Pay now', async () => {
    stripe.answer = { setupIntentId: 'seti_1' };
    const { user, saved, api } = render(withCards);
    const changes: unknown[] = [];
    api.on('PATCH', `/billing/v1/account/${acmeId}/plan`, (body) => {
      changes.push(body);
      return { status: 200, body: {} };
    });
    await user.click(await screen.findByRole('button', { name: 'Upgrade: Pilot' }));
    const plan = await screen.findByRole('dialog', { name: 'Upgrade plan' });
    expect(within(plan).queryByRole('button', { name: 'Pay now' })).toBeNull();
    await user.click(await within(plan).findByRole('button', { name: 'Add card' }));
    const card = await screen.findByRole('dialog', { name: 'Payment method' });
    const save = within(card).getByRole('button', { name: 'Save payment method' });
    await waitFor(() => expect(save).toHaveProperty('disabled', false));
    await user.click(save);
    await waitFor(() => expect(saved).toEqual([{ token_id: 'seti_1' }]));
    // Back from a bank's own confirmation page, the billing page proposes this plan again.
    expect(stripe.returnUrls.at(-1)).toContain('then-propose-plan-tier=pilot-v2');
    expect(changes).toEqual([]);
    await user.click(await within(plan).findByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(changes).toEqual([{ tier: 'pilot-v2', annual: false }]));
  });
});

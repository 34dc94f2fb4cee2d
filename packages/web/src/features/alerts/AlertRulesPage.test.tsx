// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { acmeId } from '../../test-support/organization-fixtures.js';
import { renderAt } from '../../test-support/render-organization.js';
import type { FakeRow } from '../../test-support/fake-odata.js';

afterEach(cleanup);

const garden = { id: 12, app_name: 'garden-sensors', organization: { __id: acmeId } };

const offlineRule = {
  id: 1,
  name: 'Gone quiet',
  condition: 'device offline',
  metric: null,
  threshold: null,
  pattern: null,
  for_minutes: 10,
  repeat_interval_minutes: 240,
  is_enabled: true,
  is_silenced_until__date: null,
  belongs_to__organization: { __id: acmeId },
  applies_to__application: [garden],
};

const hotRule = {
  ...offlineRule,
  id: 2,
  name: 'Too hot',
  condition: 'metric above',
  metric: 'cpu temperature',
  threshold: 80,
  for_minutes: 5,
  is_enabled: false,
  applies_to__application: [],
};

const panicRule = {
  ...offlineRule,
  id: 3,
  name: 'Panics',
  condition: 'log line',
  pattern: 'kernel panic',
  for_minutes: 15,
};

const open = (role: 'administrator' | 'member', rules: FakeRow[]) =>
  renderAt(`/orgs/${acmeId}/alerts`, role, (data) => {
    data.flotilla_alert_rule = rules;
  }).api;

describe('the Alerts tab', () => {
  it('lists the rules in words, with their fleets and state', async () => {
    open('member', [offlineRule, hotRule, panicRule]);
    const table = await screen.findByRole('table', { name: 'Alert rules' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Gone quietOffline for 10 minutesgarden-sensorsEnabled',
      'PanicsLog line containing "kernel panic" within 15 minutesgarden-sensorsEnabled',
      'Too hotCPU temperature above 80 °C for 5 minutesAll fleetsDisabled',
    ]);
    // A member reads them; only administrators change them.
    expect(screen.getByText(/Only administrators change the rules/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add alert rule' })).toBeNull();
  });

  it('says there are none yet', async () => {
    open('administrator', []);
    expect(await screen.findByText('No alert rules yet.')).toBeTruthy();
  });

  it('lets an administrator add a metric rule for one fleet', async () => {
    const user = userEvent.setup();
    const api = open('administrator', []);
    // The created rule as the list reads it back.
    api.shapeCreated('flotilla_alert_rule', (body) => ({
      ...body,
      applies_to__application: body.applies_to__application === 12 ? [garden] : [],
    }));
    await user.click(await screen.findByRole('button', { name: 'Add alert rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add alert rule' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Disk full');
    await user.click(within(dialog).getByRole('combobox', { name: 'Condition' }));
    await user.click(await screen.findByRole('option', { name: 'Metric above' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Metric' }));
    await user.click(await screen.findByRole('option', { name: 'Storage usage' }));
    const threshold = within(dialog).getByRole('spinbutton', { name: 'Above (%)' });
    await user.clear(threshold);
    await user.type(threshold, '95');
    await user.click(within(dialog).getByRole('combobox', { name: 'Fleets' }));
    await user.click(await screen.findByRole('option', { name: 'garden-sensors' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add rule' }));
    await waitFor(() =>
      expect(api.writes).toContainEqual({
        method: 'POST',
        resource: 'flotilla_alert_rule',
        id: undefined,
        body: {
          name: 'Disk full',
          condition: 'metric above',
          metric: 'storage usage',
          threshold: 95,
          pattern: null,
          for_minutes: 5,
          repeat_interval_minutes: 240,
          is_enabled: true,
          is_silenced_until__date: null,
          applies_to__application: 12,
          belongs_to__organization: acmeId,
        },
      }),
    );
    expect(
      await screen.findByRole('cell', { name: 'Storage usage above 95% for 5 minutes' }),
    ).toBeTruthy();
  });

  it('does not let an administrator add a rule the server would refuse', async () => {
    const user = userEvent.setup();
    open('administrator', []);
    await user.click(await screen.findByRole('button', { name: 'Add alert rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add alert rule' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Never');
    const minutes = within(dialog).getByRole('spinbutton', { name: 'For (minutes)' });
    await user.clear(minutes);
    await user.type(minutes, '0');
    expect(within(dialog).getByText(/For minutes must be a whole number/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Add rule' })).toHaveProperty(
      'disabled',
      true,
    );
  });
});

// @vitest-environment jsdom
import type { StatusAnswer } from '@flotilla/shared/status/status';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { answerBoot } from '../../test-support/render-console.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const degraded: StatusAnswer = {
  status: 'outage',
  checkedAt: '2026-11-30T10:00:00.000Z',
  externalUrl: null,
  components: [
    { id: 'api', name: 'API', status: 'operational', detail: null },
    { id: 'database', name: 'Database', status: 'outage', detail: 'The database does not answer' },
  ],
  notices: [
    {
      id: 1,
      kind: 'incident',
      severity: 'major',
      title: 'Builds are slow',
      message: 'We are looking into it',
      createdAt: '2026-11-30T09:00:00.000Z',
      resolvedAt: null,
    },
  ],
};

describe('StatusPage', { timeout: 30_000 }, () => {
  it('shows the overall status, open incidents and each component, and the header dot agrees', async () => {
    const api = createFakeApi({ application: [] }, { userId: 7 });
    answerBoot(api);
    api.on('GET', '/status/v1', () => ({ status: 200, body: degraded }));
    renderConsoleAt(api.client, '/status');
    expect(await screen.findByText('Some systems are down')).toBeTruthy();
    const notices = screen.getByRole('region', { name: 'Incidents and maintenance' });
    expect(within(notices).getByText('Builds are slow')).toBeTruthy();
    expect(within(notices).getByText('We are looking into it')).toBeTruthy();
    const components = screen.getByRole('region', { name: 'Components' });
    expect(within(components).getByText('The database does not answer')).toBeTruthy();
    expect(within(components).getByText('Down')).toBeTruthy();
    const dot = await screen.findByRole('link', { name: 'System status: Some systems are down' });
    expect(dot.getAttribute('href')).toBe('/status');
  });

  it('says when notices cannot be read, and links the dot to an external status page', async () => {
    const api = createFakeApi({ application: [] }, { userId: 7 });
    answerBoot(api);
    api.on('GET', '/status/v1', () => ({
      status: 200,
      body: { ...degraded, notices: null, externalUrl: 'https://status.example.com/' },
    }));
    renderConsoleAt(api.client, '/status');
    expect(await screen.findByText('Notices cannot be read right now.')).toBeTruthy();
    const dot = screen.getByRole('link', { name: 'System status: Some systems are down' });
    expect(dot.getAttribute('href')).toBe('https://status.example.com/');
  });
});

// @vitest-environment jsdom
import type { MetricPoint } from '@flotilla/shared/device-metrics/metric-history';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../fleets/application/test-helpers.js';
import { MetricHistoryCharts } from './MetricHistoryCharts.js';

afterEach(cleanup);

const uuid = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const since = '2033-03-01T00:00:00.000Z';
const until = '2033-03-02T00:00:00.000Z';

const point = (at: string, cpu: number | null, memory: number): MetricPoint => ({
  at,
  cpu_usage: cpu,
  cpu_temp: 50,
  memory_usage: memory,
  memory_total: 1000,
  storage_usage: null,
  storage_total: null,
});

const renderCharts = (reply: { status: number; body?: unknown; text?: string }) => {
  const api = createFakeApi();
  api.on('GET', `/device/v2/${uuid}/metrics`, () => reply);
  renderWithClient(api.client, <MetricHistoryCharts uuid={uuid} />);
};

describe('MetricHistoryCharts', () => {
  it('draws a chart per metric, named by its range and latest reading', async () => {
    renderCharts({
      status: 200,
      body: {
        since,
        until,
        points: [
          point('2033-03-01T06:00:00.000Z', 10, 200),
          point('2033-03-01T06:10:00.000Z', null, 900),
          point('2033-03-01T06:20:00.000Z', 70, 500),
        ],
      },
    });
    expect(
      await screen.findByRole('img', {
        name: 'CPU over the last 24 hours: 2 readings, lowest 10%, highest 70%, latest 70%',
      }),
    ).toBeTruthy();
    expect(
      screen.getByRole('img', {
        name: 'Memory over the last 24 hours: 3 readings, lowest 20%, highest 90%, latest 50%',
      }),
    ).toBeTruthy();
    expect(
      screen.getByRole('img', { name: /^Temperature over the last 24 hours: 3 readings/ }),
    ).toBeTruthy();
    // Two CPU readings 20 minutes apart: one line through both (the null between left out).
    expect(document.querySelector('[data-series="cpu"] path')?.getAttribute('d')).toMatch(
      /^M[\d.]+,[\d.]+ L[\d.]+,[\d.]+$/,
    );
    // Storage was never reported: its chart says so rather than drawing a flat line.
    expect(
      screen.getByRole('img', { name: 'Storage: no readings in the last 24 hours' }),
    ).toBeTruthy();
  });

  it('says when the device has no readings yet', async () => {
    renderCharts({ status: 200, body: { since, until, points: [] } });
    expect(await screen.findByText('No readings yet.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('shows an error when the history cannot be read', async () => {
    renderCharts({ status: 500, text: 'Server error' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not load the metric history.',
    );
  });

  it('refuses an answer that is not a metric history', async () => {
    renderCharts({ status: 200, body: { points: 'many' } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not load the metric history.',
    );
  });
});

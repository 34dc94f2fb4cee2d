// @vitest-environment jsdom
import type { MetricPoint } from '@flotilla/shared/device-metrics/metric-history';
import { axisClasses } from '@mui/x-charts/ChartsAxis';
import { referenceLineClasses } from '@mui/x-charts/ChartsReferenceLine';
import { lineClasses } from '@mui/x-charts/LineChart';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
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

// What the chart library drew inside a chart: its line's path, its dots and its threshold lines.
const drawn = (chart: HTMLElement) => ({
  line: chart.querySelector(`path.${lineClasses.line}`)?.getAttribute('d') ?? '',
  marks: chart.querySelectorAll(`.${lineClasses.mark}`).length,
  // The height of each dashed threshold line, 60 then 80 ("M x y l width 0"; SVG y grows down).
  thresholds: [...chart.querySelectorAll(`path.${referenceLineClasses.line}`)].map((path) =>
    Number(path.getAttribute('d')?.split(' ')[2]),
  ),
  // The value axis's ticks: their labels and heights ("translate(0, y)").
  yTicks: [
    ...chart.querySelectorAll(`.${axisClasses.directionY} .${axisClasses.tickContainer}`),
  ].map((tick) => ({
    label: tick.textContent,
    y: Number(/, ?([\d.]+)\)/.exec(tick.getAttribute('transform') ?? '')?.[1]),
  })),
  // Where the time axis starts and ends across the chart.
  xAxis: ['x1', 'x2'].map((end) =>
    Number(
      chart.querySelector(`.${axisClasses.directionX} .${axisClasses.line}`)?.getAttribute(end),
    ),
  ),
});

// The positions of a line's points ("Mx,yLx,y...").
const positions = (line: string): { x: number; y: number }[] =>
  [...line.matchAll(/[ML]([\d.]+),([\d.]+)/g)].map((match) => ({
    x: Number(match[1]),
    y: Number(match[2]),
  }));
const heights = (line: string): number[] => positions(line).map((point) => point.y);

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
    const cpu = await screen.findByRole('img', {
      name: 'CPU over the last 24 hours: 2 readings, lowest 10%, highest 70%, latest 70%',
    });
    expect(
      screen.getByRole('img', {
        name: 'Memory over the last 24 hours: 3 readings, lowest 20%, highest 90%, latest 50%',
      }),
    ).toBeTruthy();
    // A steady 50 °C is drawn half way up the same 0–100 scale, not as a chart of its own range.
    const temperature = drawn(
      screen.getByRole('img', { name: /^Temperature over the last 24 hours: 3 readings/ }),
    );
    const [bottom, middle] = temperature.yTicks;
    expect(temperature.yTicks.map((tick) => tick.label)).toEqual(['0', '50', '100']);
    expect(heights(temperature.line)).toEqual([middle?.y, middle?.y, middle?.y]);
    expect(bottom?.y).toBeGreaterThan(middle?.y ?? Infinity);
    // Two CPU readings 20 minutes apart: one line through both (the null between left out), no dots.
    const chart = drawn(cpu);
    expect(chart.line).toMatch(/^M[\d.]+,[\d.]+L[\d.]+,[\d.]+$/);
    expect(chart.marks).toBe(0);
    // On the 0–100 scale, with dashed lines at 60 and 80 (above): 10% is below both, 70% between.
    const [sixty = 0, eighty = 0] = chart.thresholds;
    expect(chart.thresholds).toHaveLength(2);
    expect(eighty).toBeLessThan(sixty);
    const [low = 0, high = 0] = heights(chart.line);
    expect(low).toBeGreaterThan(sixty);
    expect(high).toBeGreaterThan(eighty);
    expect(high).toBeLessThan(sixty);
    // The value axis runs from 0 to 100: the 60 line sits 60% of the way up it.
    const [zero, , hundred] = chart.yTicks;
    expect(chart.yTicks.map((tick) => tick.label)).toEqual(['0', '50', '100']);
    expect(sixty).toBeCloseTo((zero?.y ?? 0) + 0.6 * ((hundred?.y ?? 0) - (zero?.y ?? 0)), 1);
    // The time axis is the requested day: the 06:00 reading sits a quarter of the way along.
    const [start = 0, end = 0] = chart.xAxis;
    expect(positions(chart.line)[0]?.x).toBeCloseTo(start + (end - start) / 4, 1);
    // Storage was never reported: its chart says so and draws no line.
    const storage = screen.getByRole('img', { name: 'Storage: no readings in the last 24 hours' });
    expect(drawn(storage).line).toBe('');
  });

  it('leaves a gap where the device was silent, and dots lone readings', async () => {
    renderCharts({
      status: 200,
      body: {
        since,
        until,
        points: [
          point('2033-03-01T06:00:00.000Z', 20, 200),
          point('2033-03-01T12:00:00.000Z', 40, 300),
          point('2033-03-01T12:10:00.000Z', 50, 400),
        ],
      },
    });
    const cpu = drawn(await screen.findByRole('img', { name: /^CPU over the last 24 hours/ }));
    // The six silent hours split the line: a lone first reading (a dot), then a line.
    expect(cpu.line.match(/M/g)).toHaveLength(2);
    expect(cpu.marks).toBe(1);
    expect(heights(cpu.line)).toHaveLength(3);
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

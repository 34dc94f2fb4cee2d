// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import type { LogLine } from './log-stream.js';
import { LogsPanel, type LogsPanelProps } from './LogsPanel.js';

// jsdom lays nothing out: the virtualized list is given a viewport to fill.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get: () => 400,
  });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  window.localStorage.clear();
});

const uuid = 'abc123';
const services = new Map([
  [1, 'web'],
  [2, 'worker'],
]);

const logLine = (message: string, extra: Partial<LogLine> = {}): LogLine => ({
  message,
  createdAt: 0,
  timestamp: Date.UTC(2026, 10, 24, 9, 30, 15, 123),
  isSystem: false,
  isStdErr: false,
  ...extra,
});

const renderPanel = (props: Partial<LogsPanelProps> = {}) => {
  const api = createFakeApi();
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  api.on('GET', `/device/v2/${uuid}/logs`, () => ({
    status: 200,
    stream: new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
    }),
  }));
  const send = (...lines: LogLine[]) =>
    controller?.enqueue(encoder.encode(lines.map((l) => `${JSON.stringify(l)}\n`).join('')));
  // The page owns the filter (so that "show logs" can set it).
  const Harness = () => {
    const [filter, setFilter] = useState(props.filter ?? '');
    return (
      <LogsPanel
        uuid={uuid}
        fleetName="garden sensors"
        deviceName="brave-otter"
        services={services}
        clearDenied={null}
        localMode={false}
        {...props}
        filter={filter}
        onFilterChange={setFilter}
      />
    );
  };
  renderWithClient(api.client, <Harness />);
  return { api, send };
};

const log = () => screen.getByRole('log', { name: 'Device logs' });

describe('LogsPanel', () => {
  it('shows streamed lines, system lines apart from service lines', async () => {
    const { send } = renderPanel();
    await waitFor(() => expect(screen.queryByText('Loading logs…')).toBeNull());
    send(logLine('listening on 80', { serviceId: 1 }), logLine('Booted', { isSystem: true }));
    await within(log()).findByText(/listening on 80/);
    const system = within(log())
      .getByText(/Booted/)
      .closest('[data-system]');
    expect(system?.getAttribute('data-system')).toBe('true');
    expect(
      within(log())
        .getByText(/listening on 80/)
        .closest('[data-system]'),
    ).toBeNull();
    expect(within(log()).getByText('[web]')).toBeTruthy();
  });

  it('says "No logs yet" after 3 s without a line', async () => {
    vi.useFakeTimers();
    renderPanel();
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.queryByText('No logs yet')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('No logs yet')).toBeTruthy();
  });

  it('keeps the UTC and hide-timestamps toggles in this browser', async () => {
    const { send } = renderPanel();
    send(logLine('hello', { serviceId: 1 }));
    await within(log()).findByText(/hello/);
    fireEvent.click(screen.getByRole('switch', { name: 'UTC' }));
    expect(within(log()).getByText(/2026-11-24 09:30:15\.123Z/)).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Hide timestamps' }));
    expect(within(log()).queryByText(/2026-11-24/)).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('flotilla.logs.preferences') ?? '')).toEqual({
      utc: true,
      hideTimestamps: true,
    });
  });

  it('applies the service filter at most every 500 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { send } = renderPanel();
    send(logLine('from web', { serviceId: 1 }), logLine('from worker', { serviceId: 2 }));
    await within(log()).findByText(/from worker/);
    const field = screen.getByRole('textbox', { name: 'Filter by service' });
    fireEvent.change(field, { target: { value: 'w' } });
    act(() => vi.advanceTimersByTime(100));
    fireEvent.change(field, { target: { value: 'web' } });
    // "w" landed at once (both lines match it), "web" waits for the interval to end.
    act(() => vi.advanceTimersByTime(300));
    expect(within(log()).queryByText(/from worker/)).not.toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(within(log()).queryByText(/from worker/)).toBeNull();
    expect(within(log()).getByText(/from web/)).toBeTruthy();
  });

  it('downloads the shown lines in a file named after the fleet, the device and the time', async () => {
    const { send } = renderPanel();
    send(logLine('hello', { serviceId: 1 }));
    await within(log()).findByText(/hello/);
    const blobs: Blob[] = [];
    const names: string[] = [];
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:logs';
      },
      revokeObjectURL: () => undefined,
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    click.mockRestore();
    expect(names[0]).toMatch(/^garden_sensors_brave-otter_\d{4}-\d\d-\d\dT[\d-]+Z\.log$/);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0] ?? new Blob());
    });
    expect(text).toMatch(/\[web\] hello\n$/);
  });

  it('clears the logs on the server after a confirmation, only for users who may', async () => {
    const { api, send } = renderPanel();
    let deleted = 0;
    api.on('DELETE', `/device/v2/${uuid}/logs`, () => {
      deleted++;
      return { status: 200, text: '' };
    });
    send(logLine('hello', { serviceId: 1 }));
    await within(log()).findByText(/hello/);

    // Cancelling the confirmation deletes nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Clear logs' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clear logs?' });
    expect(within(dialog).getByText(/brave-otter.*cannot be undone/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toBe(0);
    expect(within(log()).getByText(/hello/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Clear logs' }));
    const again = await screen.findByRole('dialog', { name: 'Clear logs?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Clear logs' }));
    await waitFor(() => expect(within(log()).queryByText(/hello/)).toBeNull());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toBe(1);
    cleanup();

    renderPanel({ clearDenied: 'Your role does not allow it' });
    expect((screen.getByRole('button', { name: 'Clear logs' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('keeps the confirmation open with the reason when clearing fails', async () => {
    const { api } = renderPanel();
    api.on('DELETE', `/device/v2/${uuid}/logs`, () => ({
      status: 400,
      text: 'The logs could not be deleted right now',
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Clear logs' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clear logs?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear logs' }));
    expect(await within(dialog).findByText(/The logs could not be deleted right now/)).toBeTruthy();
  });

  it('says that logs are not available in local mode, and opens no stream', () => {
    renderPanel({ localMode: true });
    expect(screen.getByText('Logs are not available in local mode')).toBeTruthy();
    expect(screen.queryByRole('log')).toBeNull();
  });
});

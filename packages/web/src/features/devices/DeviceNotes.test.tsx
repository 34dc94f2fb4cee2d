// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { notesDebounceMs } from '../../ui/useDebouncedSave.js';
import { DeviceNotes } from './DeviceNotes.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const renderNotes = (denied: string | null = null) => {
  const api = createFakeApi({ device: [{ id: 41, note: 'first' }] });
  const view = renderWithClient(
    api.client,
    <DeviceNotes deviceId={41} uuid="abc123" note="first" denied={denied} />,
  );
  const field = screen.getByRole('textbox', { name: 'Notes' });
  return { api, field, view };
};

// Lets the save's promise chain settle under fake timers.
const settle = () =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });

describe('DeviceNotes', () => {
  it('saves 500 ms after typing stops, once, with the last text', async () => {
    const { api, field } = renderNotes();
    expect(notesDebounceMs).toBe(500);
    fireEvent.change(field, { target: { value: 'first line' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(field, { target: { value: 'first line, more' } });
    act(() => vi.advanceTimersByTime(499));
    expect(api.writes).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('Saving…');

    act(() => vi.advanceTimersByTime(1));
    await settle();
    expect(api.writes).toEqual([
      { method: 'PATCH', resource: 'device', id: 41, body: { note: 'first line, more' } },
    ]);
    expect(screen.getByRole('status').textContent).toBe('Saved');
  });

  it('saves a pending change at once when the notes go away', async () => {
    const { api, field, view } = renderNotes();
    fireEvent.change(field, { target: { value: 'leaving now' } });
    view.unmount();
    await settle();
    expect(api.writes).toEqual([
      { method: 'PATCH', resource: 'device', id: 41, body: { note: 'leaving now' } },
    ]);
  });

  it('shows the error when saving fails', async () => {
    const { api, field } = renderNotes();
    api.refuseNext('PATCH', 'device', 41, 'Device not found', 404);
    fireEvent.change(field, { target: { value: 'x' } });
    act(() => vi.advanceTimersByTime(notesDebounceMs));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('Could not save the note: Device not found');
  });

  it('is read-only without the permission', () => {
    const { field } = renderNotes('Observers do not have permission to do this');
    expect((field as HTMLTextAreaElement).disabled).toBe(true);
  });
});

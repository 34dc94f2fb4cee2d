// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeClient, renderWithClient } from '../fleets/application/test-helpers.js';
import { DeviceNotes, notesDebounceMs } from './DeviceNotes.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const renderNotes = (denied: string | null = null) => {
  const { client, pine } = fakeClient({});
  const view = renderWithClient(
    client,
    <DeviceNotes deviceId={41} uuid="abc123" note="first" denied={denied} />,
  );
  const field = screen.getByRole('textbox', { name: 'Notes' });
  return { pine, field, view };
};

// Lets the save's promise chain settle under fake timers.
const settle = () =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });

describe('DeviceNotes', () => {
  it('saves 500 ms after typing stops, once, with the last text', async () => {
    const { pine, field } = renderNotes();
    expect(notesDebounceMs).toBe(500);
    fireEvent.change(field, { target: { value: 'first line' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(field, { target: { value: 'first line, more' } });
    act(() => vi.advanceTimersByTime(499));
    expect(pine.patch).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('Saving…');

    act(() => vi.advanceTimersByTime(1));
    await settle();
    expect(pine.patch).toHaveBeenCalledTimes(1);
    expect(pine.patch).toHaveBeenCalledWith({
      resource: 'device',
      id: 41,
      body: { note: 'first line, more' },
    });
    expect(screen.getByRole('status').textContent).toBe('Saved');
  });

  it('saves a pending change at once when the notes go away', async () => {
    const { pine, field, view } = renderNotes();
    fireEvent.change(field, { target: { value: 'leaving now' } });
    view.unmount();
    await settle();
    expect(pine.patch).toHaveBeenCalledWith({
      resource: 'device',
      id: 41,
      body: { note: 'leaving now' },
    });
  });

  it('shows the error when saving fails', async () => {
    const { pine, field } = renderNotes();
    pine.patch.mockRejectedValueOnce(new Error('Device not found'));
    fireEvent.change(field, { target: { value: 'x' } });
    act(() => vi.advanceTimersByTime(notesDebounceMs));
    await settle();
    expect(screen.getByText('Could not save the note: Device not found')).toBeTruthy();
  });

  it('is read-only without the permission', () => {
    const { field } = renderNotes('Observers do not have permission to do this');
    expect((field as HTMLTextAreaElement).disabled).toBe(true);
  });
});

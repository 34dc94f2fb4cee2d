// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { FieldActionDialog } from './FieldActionDialog.js';
import { fieldDeviceOfRow } from './field-action-device.js';
import type { FieldRequest } from './field-actions.js';
import { supportAccessCheckDelayMs } from './support-access-check.js';
import { deviceRow } from '../../test-support/device-fixtures.js';

// The support-access dialog checks a changed date 300 ms after the last change, against the
// clock at that moment, on a fake clock.

beforeEach(() => {
  vi.useFakeTimers();
  // Local time, as the datetime-local field reads its value.
  vi.setSystemTime(new Date(2026, 0, 10, 10, 0, 59, 900));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const renderDialog = () => {
  const confirmed: FieldRequest[] = [];
  renderWithClient(
    createFakeApi({}).client,
    <FieldActionDialog
      action="support-access"
      devices={[fieldDeviceOfRow(deviceRow())]}
      skipped={[]}
      fleetId={12}
      pending={false}
      progress={null}
      onConfirm={(request) => confirmed.push(request)}
      onClose={() => {}}
    />,
  );
  const dialog = screen.getByRole('dialog');
  return {
    confirmed,
    field: within(dialog).getByLabelText('Grant until'),
    apply: within(dialog).getByRole('button', { name: 'Apply' }),
    helper: () => dialog.querySelector('.MuiFormHelperText-root')?.textContent ?? null,
  };
};

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('support access date check', () => {
  it('offers five days ahead at once, and checks a changed date only 300 ms after the change', () => {
    const { field, apply, helper, confirmed } = renderDialog();
    expect(supportAccessCheckDelayMs).toBe(300);
    expect((field as HTMLInputElement).value).toBe('2026-01-15T10:00');
    expect(apply.hasAttribute('disabled')).toBe(false);

    fireEvent.change(field, { target: { value: '2026-01-09T08:00' } });
    // Unchecked yet: no error shown, but nothing may be applied either.
    expect(helper()).toBeNull();
    expect(apply.hasAttribute('disabled')).toBe(true);
    advance(supportAccessCheckDelayMs - 1);
    expect(helper()).toBeNull();
    advance(1);
    expect(helper()).toBe('Choose a date in the future');
    expect(apply.hasAttribute('disabled')).toBe(true);

    // Typing on restarts the wait; the last value is the one checked.
    fireEvent.change(field, { target: { value: '2026-01-09T09:00' } });
    advance(200);
    fireEvent.change(field, { target: { value: '2026-01-12T09:30' } });
    expect(helper()).toBeNull();
    advance(200);
    expect(apply.hasAttribute('disabled')).toBe(true);
    advance(100);
    expect(helper()).toBeNull();
    expect(apply.hasAttribute('disabled')).toBe(false);
    fireEvent.click(apply);
    expect(confirmed).toEqual([
      {
        id: 'support-access',
        input: { until: new Date(2026, 0, 12, 9, 30).toISOString() },
      },
    ]);
  });

  it('holds the minimum to the clock at the time of the check, not when the dialog opened', () => {
    const { field, apply, helper } = renderDialog();
    // 100 ms ahead when typed; past by the time the check runs.
    fireEvent.change(field, { target: { value: '2026-01-10T10:01' } });
    advance(supportAccessCheckDelayMs);
    expect(helper()).toBe('Choose a date in the future');
    expect(apply.hasAttribute('disabled')).toBe(true);
  });

  it('asks for a date when the field is emptied', () => {
    const { field, apply, helper } = renderDialog();
    fireEvent.change(field, { target: { value: '' } });
    advance(supportAccessCheckDelayMs);
    expect(helper()).toBe('Choose a date and time');
    expect(apply.hasAttribute('disabled')).toBe(true);
  });
});

// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, visibleItems } from './ConfirmDialog.js';

afterEach(cleanup);

const confirmButton = (): HTMLButtonElement =>
  screen.getByRole('button', { name: 'Delete fleet' }) as HTMLButtonElement;

const renderDialog = (onConfirm = vi.fn()) => {
  render(
    <ConfirmDialog
      open
      title="Delete fleet my-fleet?"
      confirmText="my-fleet"
      confirmLabel="Delete fleet"
      destructive
      onConfirm={onConfirm}
      onClose={() => undefined}
    >
      This cannot be undone.
    </ConfirmDialog>,
  );
  return { onConfirm, field: screen.getByLabelText('Type "my-fleet" to confirm') };
};

describe('ConfirmDialog', () => {
  it('keeps confirm disabled until the typed text matches', async () => {
    const user = userEvent.setup();
    const { onConfirm, field } = renderDialog();
    expect(screen.getByRole('dialog', { name: 'Delete fleet my-fleet?' })).toBeTruthy();
    expect(confirmButton().disabled).toBe(true);
    await user.type(field, 'my-flee');
    expect(confirmButton().disabled).toBe(true);
    await user.type(field, 't');
    expect(confirmButton().disabled).toBe(false);
    await user.click(confirmButton());
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await user.type(field, 'x');
    expect(confirmButton().disabled).toBe(true);
  });

  it('blocks pasting the confirmation text', async () => {
    const user = userEvent.setup();
    const { field } = renderDialog();
    await user.click(field);
    await user.paste('my-fleet');
    expect((field as HTMLInputElement).value).toBe('');
    expect(confirmButton().disabled).toBe(true);
    // The paste event itself is cancelled.
    expect(fireEvent.paste(field, { clipboardData: { getData: () => 'my-fleet' } })).toBe(false);
  });

  it('lists at most ten affected items and counts the rest', () => {
    const items = Array.from({ length: 13 }, (_, index) => `device-${index + 1}`);
    render(
      <ConfirmDialog
        open
        title="Delete devices?"
        items={items}
        onConfirm={() => undefined}
        onClose={() => undefined}
      />,
    );
    const list = screen.getByRole('list', { name: 'Affected items' });
    expect(list.textContent).toContain('device-10');
    expect(list.textContent).not.toContain('device-11');
    expect(list.textContent).toContain('and 3 more');
    // A simple confirmation has no typing step.
    expect((screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('counts items that were not fetched', () => {
    expect(visibleItems(['a', 'b'], 25)).toEqual({ shown: ['a', 'b'], more: 23 });
    expect(visibleItems(['a'])).toEqual({ shown: ['a'], more: 0 });
  });
});

// A confirm the caller refuses (the write failed and the form says why) leaves the confirm button
// disabled: the focus must stay inside the dialog, so Escape still closes it.
const RefusingDialog = ({ onClose }: { onClose: () => void }) => {
  const [refused, setRefused] = useState(false);
  return (
    <ConfirmDialog
      open
      title="Unlink the account?"
      confirmLabel="Unlink"
      confirmDisabled={refused}
      error={refused ? 'This is the only way to sign in to your account' : null}
      onConfirm={() => setRefused(true)}
      onClose={onClose}
    />
  );
};

describe('ConfirmDialog after a refused confirm', () => {
  it('keeps the focus inside the dialog, so Escape closes it', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<RefusingDialog onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Unlink' }));
    await screen.findByText('This is the only way to sign in to your account');
    const dialog = screen.getByRole('dialog', { name: 'Unlink the account?' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).not.toBe(screen.getByRole('button', { name: 'Unlink' }));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

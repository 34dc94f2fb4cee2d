// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useRestartOnNewInstall } from './useRestartOnNewInstall.js';

const mount = (installId: number | null) => {
  const restart = vi.fn();
  const hook = renderHook(({ id }: { id: number | null }) => useRestartOnNewInstall(id, restart), {
    initialProps: { id: installId },
  });
  return { restart, rerender: (id: number | null) => hook.rerender({ id }) };
};

describe('useRestartOnNewInstall', () => {
  it('restarts the session when the service runs another install', () => {
    const { restart, rerender } = mount(3);
    expect(restart).not.toHaveBeenCalled();
    rerender(3);
    expect(restart).not.toHaveBeenCalled();
    rerender(5);
    expect(restart).toHaveBeenCalledTimes(1);
    rerender(5);
    expect(restart).toHaveBeenCalledTimes(1);
  });

  it('waits through a pause with nothing running, and counts only a different install', () => {
    const { restart, rerender } = mount(3);
    rerender(null);
    rerender(3);
    expect(restart).not.toHaveBeenCalled();
    rerender(null);
    rerender(7);
    expect(restart).toHaveBeenCalledTimes(1);
  });

  it('does not restart a host OS session (no install) or when the first install appears', () => {
    const { restart, rerender } = mount(null);
    rerender(4);
    expect(restart).not.toHaveBeenCalled();
    rerender(6);
    expect(restart).toHaveBeenCalledTimes(1);
  });
});

// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSelection } from './useSelection.js';

describe('useSelection', () => {
  it('toggles, selects all, and drops ids that leave the list', () => {
    const { result, rerender } = renderHook(({ ids }) => useSelection(ids), {
      initialProps: { ids: [1, 2, 3] },
    });
    act(() => result.current.start());
    act(() => result.current.toggle(3));
    act(() => result.current.toggle(1));
    expect(result.current.selected).toEqual([1, 3]);
    act(() => result.current.toggle(3));
    expect(result.current.selected).toEqual([1]);
    act(() => result.current.selectAll());
    expect(result.current.selected).toEqual([1, 2, 3]);
    rerender({ ids: [2, 3] });
    expect(result.current.selected).toEqual([2, 3]);
    expect(result.current.isSelected(1)).toBe(false);
    act(() => result.current.stop());
    expect(result.current.active).toBe(false);
    expect(result.current.selected).toEqual([]);
  });
});

// @vitest-environment jsdom
import { buildLogDisplayLines } from '@flotilla/shared/releases/builder-limits';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lastLines, ReleaseBuildLog } from './ReleaseBuildLog.js';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('build log lines', () => {
  it('keeps the last 2,999 lines', () => {
    const text = Array.from({ length: 3001 }, (_, index) => `line ${index}`).join('\n');
    const { lines, dropped } = lastLines(text);
    expect(buildLogDisplayLines).toBe(2999);
    expect(lines).toHaveLength(2999);
    expect(lines[0]).toBe('line 2');
    expect(dropped).toBe(2);
    expect(lastLines(text).total).toBe(3001);
  });

  it('has no lines for no log', () => {
    expect(lastLines(null)).toEqual({ lines: [], dropped: 0, total: 0 });
    expect(lastLines('')).toEqual({ lines: [], dropped: 0, total: 0 });
  });
});

describe('the build log view', () => {
  // jsdom lays nothing out: the log's height is what the test says it is.
  let contentHeight = 0;
  const view = () => screen.getByLabelText('Build log lines');
  const logOf = (count: number) =>
    Array.from({ length: count }, (_, index) => `step ${index}`).join('\n');
  const buildLog = (count: number) => (
    <ReleaseBuildLog fleetName="garden" commit="c0ffee1" releaseLog={logOf(count)} services={[]} />
  );

  it('opens at the end, follows a growing log, and stays where the user scrolled up to', () => {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(() => contentHeight);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(240);
    contentHeight = 1000;
    const { rerender } = render(buildLog(50));
    expect(view().scrollTop).toBe(1000);

    contentHeight = 2000;
    rerender(buildLog(100));
    expect(view().scrollTop).toBe(2000);

    view().scrollTop = 300;
    fireEvent.scroll(view());
    contentHeight = 3000;
    rerender(buildLog(150));
    expect(view().scrollTop).toBe(300);

    // Back at the end, it follows again.
    view().scrollTop = 3000 - 240;
    fireEvent.scroll(view());
    contentHeight = 4000;
    rerender(buildLog(200));
    expect(view().scrollTop).toBe(4000);
  });
});

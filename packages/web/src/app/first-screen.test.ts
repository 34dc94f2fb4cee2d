import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstScreen, firstScreenWaitMs } from './first-screen.js';

// A query whose answer the test gives when it chooses.
const pendingQuery = (queryClient: QueryClient, key: string) => {
  let answer: (value: string) => void = () => undefined;
  void queryClient.prefetchQuery({
    queryKey: [key],
    queryFn: () =>
      new Promise<string>((resolve) => {
        answer = resolve;
      }),
  });
  return (value: string) => answer(value);
};

describe('after the first screen', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts at once when nothing is being fetched', () => {
    const start = vi.fn();
    afterFirstScreen(new QueryClient(), start);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('waits for every query of the first screen, then starts once', async () => {
    const queryClient = new QueryClient();
    const answerList = pendingQuery(queryClient, 'list');
    const answerProfile = pendingQuery(queryClient, 'profile');
    const start = vi.fn();
    afterFirstScreen(queryClient, start);
    answerList('fleets');
    await vi.waitFor(() => expect(queryClient.getQueryState(['list'])?.status).toBe('success'));
    expect(start).not.toHaveBeenCalled();
    answerProfile('ada');
    await vi.waitFor(() => expect(start).toHaveBeenCalledTimes(1));
    // Later fetches do not start it again.
    await queryClient.fetchQuery({ queryKey: ['later'], queryFn: () => Promise.resolve('x') });
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts after the longest wait when a request never answers, and not when cancelled', () => {
    vi.useFakeTimers();
    const queryClient = new QueryClient();
    pendingQuery(queryClient, 'hung');
    const start = vi.fn();
    const cancelled = vi.fn();
    afterFirstScreen(queryClient, start);
    afterFirstScreen(queryClient, cancelled)();
    vi.advanceTimersByTime(firstScreenWaitMs - 1);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});

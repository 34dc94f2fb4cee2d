import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

// The longest the console's background services wait for the first screen: a request that
// never answers must not keep them off for good.
export const firstScreenWaitMs = 5_000;

// Calls `start` once the first screen's data has arrived: the first moment no query is being
// fetched (checked now, then after every change of the query cache), or after
// `firstScreenWaitMs`, whichever comes first. Returns a function that cancels the wait.
export const afterFirstScreen = (queryClient: QueryClient, start: () => void): (() => void) => {
  let done = false;
  const finish = (): void => {
    if (done) return;
    done = true;
    unsubscribe();
    clearTimeout(timer);
    start();
  };
  const check = (): void => {
    if (queryClient.isFetching() === 0) finish();
  };
  const unsubscribe = queryClient.getQueryCache().subscribe(check);
  const timer = setTimeout(finish, firstScreenWaitMs);
  check();
  return () => {
    done = true;
    unsubscribe();
    clearTimeout(timer);
  };
};

// False until the first screen's data has arrived (afterFirstScreen), then true for good. The
// console's background services (feature flags, usage counting, the live event stream) start
// then: on a cold load their code, requests and work stay out of the way of the first screen.
export const useFirstScreenShown = (queryClient: QueryClient): boolean => {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (shown) return undefined;
    return afterFirstScreen(queryClient, () => setShown(true));
  }, [queryClient, shown]);
  return shown;
};

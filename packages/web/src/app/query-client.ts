import { errorText } from '@flotilla/sdk/errors';
import { MutationCache, QueryClient } from '@tanstack/react-query';
import type { ToastKind } from '../ui/toasts.js';

export type Notify = (kind: ToastKind, text: string | null) => void;

// Mutations report failures as error toasts unless they show the error themselves
// (`meta: { inlineError: true }`).
export const createQueryClient = (notify: Notify = () => undefined): QueryClient =>
  new QueryClient({
    defaultOptions: {
      // The SDK already retries network failures (connectivity queue) and rate limits.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.inlineError === true) return;
        notify('error', errorText(error));
      },
    }),
  });

export type NotifyRelay = { notify: Notify; connect: (target: Notify) => () => void };

// The query cache exists before React does (early-start.ts), the toasts only once the app has
// mounted: notices raised in between wait here and are shown when the toasts connect.
export const createNotifyRelay = (): NotifyRelay => {
  let target: Notify | null = null;
  const waiting: Parameters<Notify>[] = [];
  return {
    notify: (kind, text) => {
      if (target) target(kind, text);
      else waiting.push([kind, text]);
    },
    connect: (next) => {
      target = next;
      for (const [kind, text] of waiting.splice(0)) next(kind, text);
      return () => {
        if (target === next) target = null;
      };
    },
  };
};

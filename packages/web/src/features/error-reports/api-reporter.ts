import { clientVersion } from '@flotilla/sdk/version';
import {
  type ConsoleErrorReport,
  errorReportLimits,
} from '@flotilla/shared/error-reports/error-reports';
import { useEffect } from 'react';
import { useClient } from '../../api/client.js';

// One page load reports at most this many errors, each distinct one once: a render loop must
// not flood the server (which limits per address as well).
export const maxReportsPerPage = 10;

const cut = (text: string, length: number): string => text.slice(0, length);

// The console's route where it happened, with the address's query and fragment left out (they
// may hold tokens).
const locationNow = (): string => cut(window.location.pathname, errorReportLimits.location);

const requestIdOf = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null || !('requestId' in error)) return undefined;
  return typeof error.requestId === 'string' && /^[\w.:-]{1,100}$/.test(error.requestId)
    ? error.requestId
    : undefined;
};

export const reportOf = (error: unknown): ConsoleErrorReport => {
  const requestId = requestIdOf(error);
  const base = {
    location: locationNow(),
    release: clientVersion,
    ...(requestId === undefined ? {} : { requestId }),
  };
  if (error instanceof Error) {
    return {
      ...base,
      name: cut(error.name || 'Error', errorReportLimits.name),
      message: cut(error.message || 'Unknown error', errorReportLimits.message),
      stack: cut(error.stack ?? '', errorReportLimits.stack),
    };
  }
  return {
    ...base,
    name: 'Error',
    message: cut(String(error) || 'Unknown error', errorReportLimits.message),
  };
};

// Posts the page's unhandled errors and rejected promises to POST /error-reports/v1 (the
// built-in error reporting; Admin → Errors). Failures to report are dropped silently.
export const useErrorReporting = (): void => {
  const client = useClient();
  useEffect(() => {
    const seen = new Set<string>();
    const send = (error: unknown): void => {
      const report = reportOf(error);
      const key = `${report.name}\n${report.message}`;
      if (seen.has(key) || seen.size >= maxReportsPerPage) return;
      seen.add(key);
      client
        .request<unknown>({ method: 'POST', path: '/error-reports/v1', body: report, auth: false })
        .catch(() => undefined);
    };
    const onError = (event: ErrorEvent): void => send(event.error ?? event.message);
    const onRejection = (event: PromiseRejectionEvent): void => send(event.reason);
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, [client]);
};

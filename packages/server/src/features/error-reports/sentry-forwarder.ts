import type { SeverityLevel } from '@sentry/node';
import type { ErrorOccurrence } from './error-store.js';

// Sends each recorded error on to Sentry as well (FLOTILLA_SENTRY_DSN), with the official SDK.
// Its own client and scope, never Sentry.init: no global instrumentation of the process, and
// several apps in one process (tests) keep their own. What is sent is what the built-in store
// keeps, already scrubbed of secrets; a client made directly has no integrations at all. The SDK is
// loaded only when a DSN is set, so an installation without Sentry never loads it.
export type ErrorForwarder = {
  forward(occurrence: ErrorOccurrence): void;
  // Sends what is queued (bounded wait), then stops.
  close(timeoutMs?: number): Promise<void>;
};

const level: SeverityLevel = 'error';

const startClient = async (dsn: string, environment: string) => {
  const { defaultStackParser, makeNodeTransport, NodeClient, Scope } = await import('@sentry/node');
  const client = new NodeClient({
    dsn,
    environment,
    transport: makeNodeTransport,
    stackParser: defaultStackParser,
    integrations: [],
  });
  const scope = new Scope();
  scope.setClient(client);
  client.init();
  return { client, scope };
};

export const createSentryForwarder = (dsn: string, environment: string): ErrorForwarder => {
  const started = startClient(dsn, environment);
  // A DSN the SDK refuses loses the forwarding only; the built-in store keeps every error.
  started.catch(() => undefined);
  return {
    forward(occurrence) {
      void started
        .then(({ scope }) =>
          scope.captureEvent({
            level,
            ...(occurrence.release === '' ? {} : { release: occurrence.release }),
            exception: { values: [{ type: occurrence.name, value: occurrence.message }] },
            tags: { source: occurrence.source, location: occurrence.location },
            extra: {
              stack: occurrence.stack,
              ...(occurrence.requestId === null ? {} : { requestId: occurrence.requestId }),
            },
          }),
        )
        .catch(() => undefined);
    },
    async close(timeoutMs = 2_000) {
      const { client } = await started.catch(() => ({ client: undefined }));
      await client?.close(timeoutMs);
    },
  };
};

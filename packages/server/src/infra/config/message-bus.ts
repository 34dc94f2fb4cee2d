import { z } from 'zod';

// The message bus between server processes (infra/bus): PostgreSQL LISTEN/NOTIFY by default;
// NATS when FLOTILLA_NATS_URL names a server (several Flotilla processes behind a load balancer).
export type MessageBusConfig = {
  // nats://host:port (several comma-separated for a NATS cluster); undefined: PostgreSQL's bus.
  natsUrl: string | undefined;
};

const natsUrls = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z
    .string()
    .trim()
    .max(2_000)
    .refine(
      (value) =>
        value.split(',').every((entry) => /^(nats|tls):\/\/[^\s/]+(:\d+)?\/?$/.test(entry.trim())),
      { message: 'Expected nats://host:port, comma-separated for several servers' },
    )
    .optional(),
);

// The environment variables, spread into the server's one configuration schema.
export const messageBusEnv = {
  FLOTILLA_NATS_URL: natsUrls,
};

export const messageBusConfigOf = (values: {
  FLOTILLA_NATS_URL?: string | undefined;
}): MessageBusConfig => ({ natsUrl: values.FLOTILLA_NATS_URL });

import { z } from 'zod';

// Where support tickets go: the built-in desk unless a Zendesk instance is configured (all three
// settings), then the ticket form's calls are forwarded to it.
export type HelpDeskConfig =
  | { kind: 'built-in' }
  | { kind: 'zendesk'; url: string; email: string; apiToken: string; timeoutMs: number };

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

// The environment variables, spread into the server's one configuration schema.
export const helpDeskEnv = {
  FLOTILLA_ZENDESK_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  FLOTILLA_ZENDESK_EMAIL: optional(z.string().trim().min(1)),
  FLOTILLA_ZENDESK_API_TOKEN: optional(z.string().trim().min(1)),
};

type HelpDeskValues = {
  FLOTILLA_ZENDESK_URL?: string | undefined;
  FLOTILLA_ZENDESK_EMAIL?: string | undefined;
  FLOTILLA_ZENDESK_API_TOKEN?: string | undefined;
};

export const helpDeskConfigOf = (values: HelpDeskValues): HelpDeskConfig =>
  values.FLOTILLA_ZENDESK_URL !== undefined &&
  values.FLOTILLA_ZENDESK_EMAIL !== undefined &&
  values.FLOTILLA_ZENDESK_API_TOKEN !== undefined
    ? {
        kind: 'zendesk',
        url: values.FLOTILLA_ZENDESK_URL.replace(/\/+$/, ''),
        email: values.FLOTILLA_ZENDESK_EMAIL,
        apiToken: values.FLOTILLA_ZENDESK_API_TOKEN,
        timeoutMs: 15_000,
      }
    : { kind: 'built-in' };

import { z } from 'zod';
import { linkUrl } from './link-url.js';

// A chat widget in the support drawer: Chatwoot (open source, self-hostable) when configured.
// Without it, the drawer's built-in way to message the operator is a help-desk ticket.
export type ChatWidgetConfig = { provider: 'chatwoot'; url: string; websiteToken: string };

// The environment variables, spread into the server's one configuration schema.
export const chatWidgetEnv = {
  FLOTILLA_CHATWOOT_URL: linkUrl,
  // A Chatwoot website inbox's token: public by design (every page that shows the widget has it).
  FLOTILLA_CHATWOOT_WEBSITE_TOKEN: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be a Chatwoot website inbox token')
      .optional(),
  ),
};

type ChatWidgetValues = {
  FLOTILLA_CHATWOOT_URL?: string | undefined;
  FLOTILLA_CHATWOOT_WEBSITE_TOKEN?: string | undefined;
};

export const chatWidgetConfigOf = (values: ChatWidgetValues): ChatWidgetConfig | undefined => {
  const { FLOTILLA_CHATWOOT_URL: url, FLOTILLA_CHATWOOT_WEBSITE_TOKEN: websiteToken } = values;
  if (url === undefined && websiteToken === undefined) return undefined;
  if (url === undefined || websiteToken === undefined) {
    throw new Error(
      'Invalid configuration: set both FLOTILLA_CHATWOOT_URL and FLOTILLA_CHATWOOT_WEBSITE_TOKEN, or neither',
    );
  }
  return { provider: 'chatwoot', url: new URL(url).origin, websiteToken };
};

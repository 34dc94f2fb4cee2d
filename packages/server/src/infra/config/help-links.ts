import { linkUrl } from './link-url.js';

// The console header's help links, served by GET /config. A path starts with / and is a page of
// the console itself; null hides the entry.
export type HelpLinks = {
  gettingStarted: string;
  docs: string;
  featureRequests: string | null;
  forums: string | null;
  help: string | null;
};

// The built-in documentation pages (features/docs serves their Markdown).
export const defaultHelpLinks: HelpLinks = {
  gettingStarted: '/docs/getting-started',
  docs: '/docs/agent',
  featureRequests: null,
  forums: null,
  help: null,
};

// The environment variables, spread into the server's one configuration schema.
export const helpLinksEnv = {
  FLOTILLA_LINK_GETTING_STARTED: linkUrl,
  FLOTILLA_LINK_DOCS: linkUrl,
  FLOTILLA_LINK_FEATURE_REQUESTS: linkUrl,
  FLOTILLA_LINK_FORUMS: linkUrl,
  FLOTILLA_LINK_HELP: linkUrl,
};

type HelpLinkValues = {
  FLOTILLA_LINK_GETTING_STARTED?: string | undefined;
  FLOTILLA_LINK_DOCS?: string | undefined;
  FLOTILLA_LINK_FEATURE_REQUESTS?: string | undefined;
  FLOTILLA_LINK_FORUMS?: string | undefined;
  FLOTILLA_LINK_HELP?: string | undefined;
};

export const helpLinksOf = (values: HelpLinkValues): HelpLinks => ({
  gettingStarted: values.FLOTILLA_LINK_GETTING_STARTED ?? defaultHelpLinks.gettingStarted,
  docs: values.FLOTILLA_LINK_DOCS ?? defaultHelpLinks.docs,
  featureRequests: values.FLOTILLA_LINK_FEATURE_REQUESTS ?? null,
  forums: values.FLOTILLA_LINK_FORUMS ?? null,
  help: values.FLOTILLA_LINK_HELP ?? null,
});

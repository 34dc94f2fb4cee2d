import { z } from 'zod';
import { linkUrl } from './link-url.js';

// Plausible (plausible.io or a self-hosted instance) as the analytics product the first-party
// counts are also sent to. Both settings or neither: a site needs its server and its domain.
export type PlausibleConfig = { url: string; domain: string } | undefined;

// The environment variables, spread into the server's one configuration schema.
export const plausibleEnv = {
  FLOTILLA_PLAUSIBLE_URL: linkUrl,
  FLOTILLA_PLAUSIBLE_DOMAIN: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .trim()
      .regex(
        /^[a-z0-9.-]{1,253}$/i,
        'must be a site domain as Plausible knows it (console.example.com)',
      )
      .optional(),
  ),
};

type PlausibleValues = {
  FLOTILLA_PLAUSIBLE_URL?: string | undefined;
  FLOTILLA_PLAUSIBLE_DOMAIN?: string | undefined;
};

export const plausibleConfigOf = (values: PlausibleValues): PlausibleConfig => {
  const { FLOTILLA_PLAUSIBLE_URL: url, FLOTILLA_PLAUSIBLE_DOMAIN: domain } = values;
  if (url === undefined && domain === undefined) return undefined;
  if (url === undefined || domain === undefined) {
    throw new Error(
      'Invalid configuration: set both FLOTILLA_PLAUSIBLE_URL and FLOTILLA_PLAUSIBLE_DOMAIN, or neither',
    );
  }
  return { url: url.replace(/\/+$/, ''), domain };
};

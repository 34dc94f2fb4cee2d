import { z } from 'zod';

// A link set from the environment: an http(s) URL; an empty value counts as unset.
export const linkUrl = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
);

import { z } from 'zod';

// The operator's service agreement (terms of the plans it sells), which the billing page links
// to. Unset: no link is shown.
export const serviceAgreementEnv = {
  FLOTILLA_SERVICE_AGREEMENT_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  ),
};

export const serviceAgreementUrlOf = (values: {
  FLOTILLA_SERVICE_AGREEMENT_URL?: string | undefined;
}): string | null => values.FLOTILLA_SERVICE_AGREEMENT_URL ?? null;

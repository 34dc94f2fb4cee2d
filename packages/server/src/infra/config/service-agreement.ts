import { linkUrl } from './link-url.js';

// The operator's service agreement (terms of the plans it sells), which the billing page links
// to. Unset: no link is shown.
export const serviceAgreementEnv = {
  FLOTILLA_SERVICE_AGREEMENT_URL: linkUrl,
};

export const serviceAgreementUrlOf = (values: {
  FLOTILLA_SERVICE_AGREEMENT_URL?: string | undefined;
}): string | null => values.FLOTILLA_SERVICE_AGREEMENT_URL ?? null;

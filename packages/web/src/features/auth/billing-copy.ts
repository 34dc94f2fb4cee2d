import type { PublicConfig } from '@flotilla/sdk/config';

// The free-devices line belongs to an installation that bills; a self-hosted server says nothing
// about prices.
export const freeDevicesNote = (config: PublicConfig | undefined): string | undefined =>
  config?.billingEnabled === true ? 'Your first 10 devices are always free.' : undefined;

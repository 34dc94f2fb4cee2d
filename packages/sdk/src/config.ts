import type { SignupMode } from '@flotilla/shared/auth/signup-mode';
import type { RequestFn } from './request.js';

// GET /config: public settings of the installation.
export type PublicConfig = {
  // The installation's tag (the server's FLOTILLA_DEPLOYMENT_TAG, e.g. "staging"), null for none.
  deployment: string | null;
  // Base of the public device URLs.
  deviceUrlsBase: string;
  signupCodeRequired: boolean;
  // Where the API serves the actions service (health checks, diagnostics), e.g. '/actions'.
  actionsPath?: string;
  supportedSocialProviders: string[];
  // The header's help links (null = not configured); see the server's FLOTILLA_LINK_* variables.
  helpLinks?: {
    gettingStarted: string | null;
    docs: string | null;
    featureRequests: string | null;
    forums: string | null;
    help: string | null;
  };
  // The name of the console's analytics adapter, null (or absent) when there is none, as in
  // every Flotilla installation today: the cookie banner then offers no analytics choice.
  analytics?: string | null;
  // Who may sign up (Flotilla's): anyone, invitees only (with an invitation's link), or nobody.
  // Absent (an older server): open.
  signup?: SignupMode;
  // reCAPTCHA site key for the sign-up widget; null when sign-up needs no captcha.
  recaptchaSiteKey?: string | null;
  // The console's map tiles (Flotilla's): a Leaflet URL template (empty: no tiles) and the
  // attribution shown with them.
  mapTiles?: { url: string; attribution: string };
  // The avatar service (Flotilla's): a URL template whose {hash} is the SHA-256 of the lower-cased
  // e-mail address; null or absent when the operator enabled none (the console draws the initial).
  avatarUrl?: string | null;
  // Networks (addresses or CIDR ranges) the console's command-line login page may post a session
  // token to besides loopback and the private ranges (Flotilla's).
  cliLoginAllowedNetworks?: string[];
  // Whether the server builds the images of services with a `build:` step (Flotilla's), and
  // if not, why (no container engine or registry configured). Absent (an older server): unknown.
  builder?: { buildsImages: boolean; unavailableReason: string | null };
  // Whether the installation bills for devices and sends a newsletter (Flotilla's). Absent (an
  // older server): neither.
  billingEnabled?: boolean;
  newsletterEnabled?: boolean;
  // The support drawer's chat widget (Flotilla's): Chatwoot's server and its public website
  // token; null or absent when none is configured (the help desk's tickets are the way in).
  chatWidget?: { provider: 'chatwoot'; url: string; websiteToken: string } | null;
  // Card payments (Flotilla's): Stripe's publishable key for the console's card form; null or
  // absent when invoices are paid by bank transfer (the manual provider).
  cardPayments?: { provider: 'stripe'; publishableKey: string } | null;
  // The operator's service agreement the billing page links to (Flotilla's); null or absent
  // when there is none.
  serviceAgreementUrl?: string | null;
};

// One option of the OS image configuration form (device-type.json `options`).
export type DeviceTypeOption = {
  name: string;
  message: string;
  type?: string;
  default?: string | number | boolean;
  min?: number;
  max?: number;
  hidden?: boolean;
  choices?: Array<string | number>;
  choicesLabels?: Record<string, string>;
  when?: Record<string, string | number | boolean>;
  isGroup?: boolean;
  isCollapsible?: boolean;
  collapsed?: boolean;
  options?: DeviceTypeOption[];
};

// GET /device-types/v1: one device-type.json manifest per device type.
export type DeviceTypeManifest = {
  slug: string;
  name: string;
  aliases: string[];
  arch: string;
  state?: string;
  private?: boolean;
  isDependent?: boolean;
  options?: DeviceTypeOption[];
  initialization?: {
    options?: DeviceTypeOption[];
    operations?: Array<{ command: string }>;
  };
  yocto: {
    machine?: string;
    image?: string;
    fstype?: string;
    deployArtifact: string;
    compressed?: boolean;
    archive?: boolean;
  };
};

// Public: sent without the token, as balena's SDK does (an expired token would turn it into a
// 401).
export const fetchPublicConfig = (request: RequestFn): Promise<PublicConfig> =>
  request<PublicConfig>({ path: '/config', auth: false });

// Sent with the token: private device types are listed for those who may see them.
export const fetchDeviceTypes = (request: RequestFn): Promise<DeviceTypeManifest[]> =>
  request<DeviceTypeManifest[]>({ path: '/device-types/v1' });

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { configVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';
import { socialProviders } from '@flotilla/shared/social-auth/social-providers';
import type { AppContext } from '../../app-context.js';
import { ApiError } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { imageBuilderOf } from '../builder/image-builder.js';
import { actionsPath } from '../diagnostics/register-diagnostics.js';
import { canonicalDeviceTypeSlug } from '../device-types/device-type-rows.js';
import { deviceUrlsBaseOf } from '../device-url/device-url-host.js';

const builderOf = (
  ctx: AppContext,
): { buildsImages: boolean; unavailableReason: string | null } => {
  const availability = imageBuilderOf(ctx.config);
  return 'builder' in availability
    ? { buildsImages: true, unavailableReason: null }
    : { buildsImages: false, unavailableReason: availability.unavailable };
};

const varsQuery = z.object({ deviceType: z.string().min(1).max(255).optional() });

// GET /config and GET /config/vars: public configuration the SDK and CLI read.
export const registerConfigRoutes = (app: FastifyInstance, ctx: AppContext): void => {
  // The SDK reads deviceUrlsBase (device URLs, host-OS updates); the rest mirrors the shape of
  // balena's answer; the only third-party key is the (public) captcha site key. helpLinks (a
  // Flotilla addition) are the console header's help menu: a path is a console page, null hides
  // the entry. analytics (also ours) names the console's analytics adapter: null unless
  // FLOTILLA_ANALYTICS turns the first-party counts on; then the cookie banner asks for consent.
  app.get('/config', { config: { access: 'public' } }, async () => ({
    // The installation's tag (FLOTILLA_DEPLOYMENT_TAG, e.g. "staging"), null for none: the
    // console puts it in page titles and stripes its navigation.
    deployment: ctx.config.deploymentTag ?? null,
    deviceUrlsBase: deviceUrlsBaseOf(ctx.config.deviceUrlsBase, app.addresses()),
    signupCodeRequired: false,
    // The social sign-in providers the operator configured (FLOTILLA_GITHUB_*, FLOTILLA_GOOGLE_*):
    // the login page shows a button for each, Preferences offers to link each.
    supportedSocialProviders: socialProviders.filter(
      (provider) => ctx.config.socialAuth[provider] !== undefined,
    ),
    helpLinks: { ...ctx.config.helpLinks },
    analytics: ctx.config.analytics === 'off' ? null : ctx.config.analytics,
    // The reCAPTCHA site key sign-up pages render the widget with (FLOTILLA_RECAPTCHA_SITE_KEY);
    // null when sign-up needs no captcha.
    recaptchaSiteKey: ctx.config.recaptcha?.siteKey ?? null,
    // Who may sign up (FLOTILLA_SIGNUP, ours): open, invitation (with an invitation's link
    // only) or closed; the console's sign-up page says which instead of failing.
    signup: ctx.config.signup,
    // Where this API serves the actions service (health checks, diagnostics): a path on it.
    actionsPath,
    // The console's map tiles (ours): a Leaflet URL template, empty for no tiles.
    mapTiles: { ...ctx.config.mapTiles },
    // The avatar service the console may ask for the user's picture (ours; FLOTILLA_AVATAR_URL):
    // a URL template whose {hash} is the SHA-256 of the e-mail address; null (the default) for
    // none, and the console draws the initial.
    avatarUrl: ctx.config.avatarUrl,
    // Networks the console's command-line login page may post a token to besides loopback and
    // the private ranges (ours; FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS).
    cliLoginAllowedNetworks: [...ctx.config.cliLoginAllowedNetworks],
    // Whether this server builds the images of services with a `build:` step (ours): it needs a
    // container engine and a registry; the reason says which is missing.
    builder: builderOf(ctx),
    // Whether the installation bills or sends a newsletter (ours; FLOTILLA_BILLING,
    // FLOTILLA_NEWSLETTER): the console mentions free devices or offers the newsletter only then.
    billingEnabled: ctx.config.billingEnabled,
    // The support drawer's chat widget (ours; FLOTILLA_CHATWOOT_*): its server and public
    // website token, null when none is configured.
    chatWidget: ctx.config.chatWidget ?? null,
    // Card payments (ours; FLOTILLA_STRIPE_*): the provider and its public key, null without.
    cardPayments:
      ctx.config.billingEnabled && ctx.config.stripe
        ? { provider: 'stripe', publishableKey: ctx.config.stripe.publishableKey }
        : null,
    newsletterEnabled: ctx.config.newsletterEnabled,
    // The operator's service agreement the billing page links to (ours;
    // FLOTILLA_SERVICE_AGREEMENT_URL), null when there is none.
    serviceAgreementUrl: ctx.config.billingEnabled ? ctx.config.serviceAgreementUrl : null,
  }));

  // Naming rules for variables; `deviceType` (which needs a signed-in user, as in balena) adds
  // the settings specific to that device type.
  app.get('/config/vars', { config: { access: 'public' } }, async (request) => {
    const { deviceType } = parseBody(varsQuery, request.query);
    let slug: string | undefined;
    if (deviceType !== undefined) {
      const actor = request.actor;
      if (actor.kind !== 'user' || actor.twoFactorPending) {
        throw new ApiError('unauthorized', 'Unauthorized');
      }
      slug = (await canonicalDeviceTypeSlug(ctx.db, deviceType)) ?? deviceType;
    }
    return configVarsAnswer(slug);
  });
};

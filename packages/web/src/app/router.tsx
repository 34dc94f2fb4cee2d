import { createBrowserRouter, createPath, Navigate, Outlet, type RouteObject } from 'react-router';
import { RouteErrorScreen } from '../features/errors/ErrorScreen.js';
import { NotFoundPage } from '../features/errors/NotFoundPage.js';
import { NotFoundShell } from '../features/errors/NotFoundShell.js';
import {
  LoadingScreen,
  RequireGuest,
  RequirePendingTwoFactor,
  RequireSession,
} from '../api/session/guards.js';
import { loadRouteChunk, reloadTabTo } from './chunk-recovery.js';
import type { RouteData } from '../api/route-data.js';
import { fleetListLoader, signedInShellLoader } from './route-prefetch.js';
import { adminRoutes } from './admin-routes.js';
import { deviceRoutes } from './device-routes.js';
import { fleetRoutes } from './fleet-routes.js';
import { organizationChildren } from './organization-routes.js';

export type LazyPage = <Name extends string>(
  load: () => Promise<Record<Name, React.ComponentType>>,
  name: Name,
) => { Component: () => Promise<React.ComponentType> };

// Screens are code-split per route: the initial bundle holds only the shell and the guards.
// `recover` is what a failed chunk load does (chunk-recovery.ts). The object form of `lazy`
// tells the router that only the component is lazy, so a route's loader (route-prefetch.ts)
// starts its queries at once instead of after every lazy module of the matched routes (the
// shell's included) has loaded and run.
const lazyPages =
  (recover: () => boolean): LazyPage =>
  (load, name) => ({
    Component: async () => {
      const module = await loadRouteChunk(load, recover);
      return module[name];
    },
  });

// `data` lets loaders start a screen's queries in parallel with its code (route-prefetch.ts).
export const consoleRoutes = (
  data?: RouteData,
  recover: () => boolean = () => false,
): RouteObject[] => routeTable(data, lazyPages(recover));

const routeTable = (data: RouteData | undefined, lazyPage: LazyPage): RouteObject[] => [
  {
    errorElement: <RouteErrorScreen />,
    // A deep link's first load waits for its lazy screens: the app's loading screen meanwhile.
    HydrateFallback: LoadingScreen,
    children: [
      {
        element: (
          <RequireGuest>
            <Outlet />
          </RequireGuest>
        ),
        children: [
          {
            path: '/login',
            lazy: lazyPage(() => import('../features/auth/LoginPage.js'), 'LoginPage'),
          },
          {
            path: '/signup',
            lazy: lazyPage(() => import('../features/auth/SignupPage.js'), 'SignupPage'),
          },
          // Enterprise login: ask for the SSO identifier, or start with it.
          {
            path: '/saml/:ssoIdentifier?',
            lazy: lazyPage(() => import('../features/sso/SamlLoginPage.js'), 'SamlLoginPage'),
          },
          // Forgotten password: ask for a link, then /password-reset/success.
          {
            path: '/password-reset/:step?',
            lazy: lazyPage(
              () => import('../features/password-reset/PasswordResetRequestPage.js'),
              'PasswordResetRoute',
            ),
          },
        ],
      },
      {
        path: '/login/two-factor',
        element: (
          <RequirePendingTwoFactor>
            <Outlet />
          </RequirePendingTwoFactor>
        ),
        children: [
          {
            index: true,
            lazy: lazyPage(
              () => import('../features/auth/TwoFactorLoginPage.js'),
              'TwoFactorLoginPage',
            ),
          },
        ],
      },
      {
        // The shell is a chunk of its own: a guest's first load (login) does not need it.
        element: (
          <RequireSession>
            <Outlet />
          </RequireSession>
        ),
        children: [
          {
            loader: signedInShellLoader(data),
            lazy: lazyPage(() => import('../features/shell/AppLayout.js'), 'AppLayout'),
            children: [
              { index: true, element: <Navigate to="/fleets" replace /> },
              {
                path: '/fleets',
                loader: fleetListLoader(data, 'fleet'),
                lazy: lazyPage(() => import('../features/fleets/FleetsPage.js'), 'FleetsPage'),
              },
              {
                path: '/apps',
                loader: fleetListLoader(data, 'app'),
                lazy: lazyPage(() => import('../features/fleets/FleetsPage.js'), 'AppsPage'),
              },
              {
                path: '/blocks',
                loader: fleetListLoader(data, 'block'),
                lazy: lazyPage(() => import('../features/fleets/FleetsPage.js'), 'BlocksPage'),
              },
              // An organization's fleets, apps and blocks.
              {
                path: '/orgs/:organizationId/fleets',
                loader: fleetListLoader(data, 'fleet'),
                lazy: lazyPage(() => import('../features/fleets/FleetsPage.js'), 'FleetsPage'),
              },
              {
                path: '/orgs/:organizationId/apps',
                loader: fleetListLoader(data, 'app'),
                lazy: lazyPage(() => import('../features/fleets/FleetsPage.js'), 'AppsPage'),
              },
              {
                path: '/orgs/:organizationId/blocks',
                loader: fleetListLoader(data, 'block'),
                lazy: lazyPage(() => import('../features/fleets/FleetsPage.js'), 'BlocksPage'),
              },
              // One fleet and its sections.
              ...fleetRoutes(lazyPage),
              ...deviceRoutes(lazyPage),
              // Organizations, their members and teams.
              {
                path: '/orgs',
                lazy: lazyPage(
                  () => import('../features/organizations/OrganizationsPage.js'),
                  'OrganizationsPage',
                ),
              },
              // The billing page of the user's first administered organization.
              {
                path: '/billing',
                lazy: lazyPage(
                  () => import('../features/billing/BillingRedirectPage.js'),
                  'BillingRedirectPage',
                ),
              },
              {
                path: '/orgs/:organizationId',
                lazy: lazyPage(
                  () => import('../features/organizations/OrganizationLayout.js'),
                  'OrganizationLayout',
                ),
                children: organizationChildren(lazyPage),
              },
              // `balena login --web`: hands the session to the CLI.
              {
                path: '/login/cli/*',
                lazy: lazyPage(
                  () => import('../features/cli-login/CliLoginPage.js'),
                  'CliLoginPage',
                ),
              },
              ...adminRoutes(lazyPage),
              // OAuth consent: a registered application asks for access.
              {
                path: '/login/oauth/:clientId',
                lazy: lazyPage(
                  () => import('../features/oauth/OAuthConsentPage.js'),
                  'OAuthConsentPage',
                ),
              },
              // The built-in status page (the header's dot opens it).
              {
                path: '/status',
                lazy: lazyPage(() => import('../features/status/StatusPage.js'), 'StatusPage'),
              },
              // Account preferences, one tab per path segment.
              ...['/preferences', '/preferences/:tab'].map((path): RouteObject => ({
                path,
                lazy: lazyPage(
                  () => import('../features/preferences/PreferencesPage.js'),
                  'PreferencesPage',
                ),
              })),
              {
                path: '/docs/:page',
                lazy: lazyPage(() => import('../features/docs/DocsPage.js'), 'DocsPage'),
              },
              {
                path: '/identity-provider',
                lazy: lazyPage(
                  () => import('../features/sso/IdentityProvidersPage.js'),
                  'IdentityProvidersPage',
                ),
              },
              {
                path: '/identity-provider/:id',
                lazy: lazyPage(
                  () => import('../features/sso/IdentityProviderPage.js'),
                  'IdentityProviderPage',
                ),
              },
              // Deploy from a URL: a "deploy" link's landing.
              {
                path: '/deploy',
                lazy: lazyPage(() => import('../features/deploy/DeployPage.js'), 'DeployPage'),
              },
            ],
          },
          // A new account's profile step, outside the shell that sends them there.
          {
            path: '/signup/profile',
            lazy: lazyPage(
              () => import('../features/signup-profile/SignupProfilePage.js'),
              'SignupProfilePage',
            ),
          },
        ],
      },
      // The identity provider's way back: a sign-in code, or a merge that needs the signed-in
      // owner of the account (the page sends guests to log in first).
      {
        path: '/saml/callback/signon',
        lazy: lazyPage(() => import('../features/sso/SamlSignOnPage.js'), 'SamlSignOnPage'),
      },
      {
        path: '/saml/callback/merge',
        lazy: lazyPage(() => import('../features/sso/SamlMergePage.js'), 'SamlMergePage'),
      },
      // Back from confirming the signed-in user's identity at their identity provider.
      {
        path: '/saml/callback/reauth',
        lazy: lazyPage(
          () => import('../features/reauthentication/SamlReauthPage.js'),
          'SamlReauthPage',
        ),
      },
      // Invitation links from e-mails: for guests and signed-in users alike.
      {
        path: '/organization/invitation/:token',
        lazy: lazyPage(
          () => import('../features/invitations/InvitationPage.js'),
          'OrganizationInvitationPage',
        ),
      },
      {
        path: '/invitation/:token',
        lazy: lazyPage(
          () => import('../features/invitations/InvitationPage.js'),
          'FleetInvitationPage',
        ),
      },
      // Where GitHub or Google send the browser back: a guest signs in (or up), a signed-in user
      // who started a link from Preferences gets the account linked.
      {
        path: '/auth/:provider/callback',
        lazy: lazyPage(
          () => import('../features/social-auth/SocialCallbackPage.js'),
          'SocialCallbackPage',
        ),
      },
      // The mailed password reset link, whoever is signed in (the reset ends every session).
      {
        path: '/user/reset-password/:loginCode',
        lazy: lazyPage(
          () => import('../features/password-reset/ResetPasswordPage.js'),
          'ResetPasswordPage',
        ),
      },
      // E-mail verification: /user/verify-email/pending, where a signed-in user waits
      // (the shell sends unverified users there), and the mailed link (either order of its parts).
      {
        path: '/user/verify-email/:first/:second?',
        lazy: lazyPage(
          () => import('../features/email-verification/VerifyEmailPage.js'),
          'VerifyEmailRoute',
        ),
      },
      {
        element: <NotFoundShell />,
        children: [
          {
            lazy: lazyPage(() => import('../features/shell/AppLayout.js'), 'AppLayout'),
            children: [
              { path: '/404', element: <NotFoundPage /> },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];

// A chunk that fails to load (gone after an upgrade) reloads the tab once, at the page the user
// was going to (the pending navigation's location, else the current one).
export const createConsoleRouter = (data?: RouteData) => {
  const router = createBrowserRouter(
    consoleRoutes(
      data,
      reloadTabTo(() => createPath(router.state.navigation.location ?? router.state.location)),
    ),
  );
  return router;
};

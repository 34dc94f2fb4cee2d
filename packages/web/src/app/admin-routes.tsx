import type { RouteObject } from 'react-router';
import type { LazyPage } from './router.js';

// The platform administrators' area (admin.home, the queue also for support agents): users and
// login-as, OAuth applications, the mail outbox, the support queue, the host OS catalogue, status
// notices, feature flags, error reports, usage and the audit log. Each page checks its own permission.
export const adminRoutes = (lazyPage: LazyPage): RouteObject[] => [
  {
    path: '/admin',
    lazy: lazyPage(() => import('../features/platform-admin/AdminPage.js'), 'AdminPage'),
  },
  {
    path: '/admin/oauth',
    lazy: lazyPage(
      () => import('../features/oauth/OAuthApplicationsPage.js'),
      'OAuthApplicationsPage',
    ),
  },
  {
    path: '/admin/outbox',
    lazy: lazyPage(() => import('../features/mail/OutboxPage.js'), 'OutboxPage'),
  },
  // The help desk's queue (support agents and platform administrators).
  {
    path: '/admin/support',
    lazy: lazyPage(() => import('../features/support/SupportQueuePage.js'), 'SupportQueuePage'),
  },
  // The ticket form's fields (admin.home).
  {
    path: '/admin/support-fields',
    lazy: lazyPage(() => import('../features/support/TicketFieldsPage.js'), 'TicketFieldsPage'),
  },
  {
    path: '/admin/support/:ticketId',
    lazy: lazyPage(() => import('../features/support/QueueTicketPage.js'), 'QueueTicketPage'),
  },
  // The host OS and supervisor releases offered to devices (admin.home).
  {
    path: '/admin/os-catalogue',
    lazy: lazyPage(
      () => import('../features/host-os/HostOsCataloguePage.js'),
      'HostOsCataloguePage',
    ),
  },
  // The product's own services (admin.home): status notices, flags, errors, usage.
  {
    path: '/admin/status',
    lazy: lazyPage(() => import('../features/status/StatusAdminPage.js'), 'StatusAdminPage'),
  },
  {
    path: '/admin/feature-flags',
    lazy: lazyPage(
      () => import('../features/feature-flags/FeatureFlagsAdminPage.js'),
      'FeatureFlagsAdminPage',
    ),
  },
  {
    path: '/admin/errors',
    lazy: lazyPage(
      () => import('../features/error-reports/ErrorReportsAdminPage.js'),
      'ErrorReportsAdminPage',
    ),
  },
  // Every SAML identity provider (admin.home).
  {
    path: '/admin/identity-providers',
    lazy: lazyPage(
      () => import('../features/sso/IdentityProvidersAdminPage.js'),
      'IdentityProvidersAdminPage',
    ),
  },
  // The plan catalogue organizations are billed by (admin.home).
  {
    path: '/admin/plans',
    lazy: lazyPage(() => import('../features/billing/AdminPlansPage.js'), 'AdminPlansPage'),
  },
  // The US sales tax rates invoices carry (admin.home).
  {
    path: '/admin/sales-tax',
    lazy: lazyPage(() => import('../features/billing/SalesTaxAdminPage.js'), 'SalesTaxAdminPage'),
  },
  // Every audit record of the installation (admin.home).
  {
    path: '/admin/audit-log',
    lazy: lazyPage(
      () => import('../features/audit-log/PlatformAuditLogPage.js'),
      'PlatformAuditLogPage',
    ),
  },
  {
    path: '/admin/usage',
    lazy: lazyPage(() => import('../features/analytics/UsageAdminPage.js'), 'UsageAdminPage'),
  },
];

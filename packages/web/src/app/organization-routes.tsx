import type { RouteObject } from 'react-router';
import type { LazyPage } from './router.js';

// Pages under /orgs/:organizationId, inside its layout: summary, members, member (its teams and
// fleets, apps, blocks), teams, team (its members and fleets, apps, blocks), billing, support
// tickets, alert rules, the audit log.
export const organizationChildren = (lazyPage: LazyPage): RouteObject[] => {
  const summary = lazyPage(
    () => import('../features/organizations/OrganizationSummaryPage.js'),
    'OrganizationSummaryPage',
  );
  const member = lazyPage(() => import('../features/organizations/MemberPage.js'), 'MemberPage');
  const team = lazyPage(() => import('../features/organizations/TeamPage.js'), 'TeamPage');
  const sections = (first: string) => [first, 'fleets', 'apps', 'blocks'];
  return [
    { index: true, lazy: summary },
    {
      path: 'members',
      lazy: lazyPage(() => import('../features/organizations/MembersPage.js'), 'MembersPage'),
    },
    { path: 'members/:memberId', lazy: member },
    ...sections('teams').map((section) => ({ path: `members/:memberId/${section}`, lazy: member })),
    {
      path: 'teams',
      lazy: lazyPage(() => import('../features/organizations/TeamsPage.js'), 'TeamsPage'),
    },
    { path: 'teams/:teamId', lazy: team },
    ...sections('members').map((section) => ({ path: `teams/:teamId/${section}`, lazy: team })),
    {
      path: 'webhooks',
      lazy: lazyPage(() => import('../features/webhooks/WebhooksPage.js'), 'WebhooksPage'),
    },
    {
      path: 'support',
      lazy: lazyPage(
        () => import('../features/support/SupportTicketsPage.js'),
        'SupportTicketsPage',
      ),
    },
    {
      path: 'alerts',
      lazy: lazyPage(() => import('../features/alerts/AlertRulesPage.js'), 'AlertRulesPage'),
    },
    {
      path: 'credits',
      lazy: lazyPage(() => import('../features/credits/CreditsPage.js'), 'CreditsPage'),
    },
    {
      path: 'billing',
      lazy: lazyPage(() => import('../features/billing/BillingPage.js'), 'BillingPage'),
    },
    {
      path: 'audit',
      lazy: lazyPage(() => import('../features/audit-log/AuditLogPage.js'), 'AuditLogPage'),
    },
    {
      path: 'support/:ticketId',
      lazy: lazyPage(
        () => import('../features/support/OrganizationTicketPage.js'),
        'OrganizationTicketPage',
      ),
    },
  ];
};

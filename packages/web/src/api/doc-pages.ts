// The built-in documentation pages: GET /docs/v1/:page serves their Markdown.

export type DocPage = { title: string; file: string };

// Keyed by the page of /docs/:page; `file` is the page's path in the repository (what its
// relative links are relative to).
export const docPages: Readonly<Record<string, DocPage>> = {
  'getting-started': { title: 'Getting started', file: 'README.md' },
  architecture: { title: 'Architecture', file: 'docs/ARCHITECTURE.md' },
  devices: { title: 'Devices', file: 'docs/DEVICES.md' },
  'host-os': { title: 'Host OS catalogue', file: 'docs/HOST-OS.md' },
  releases: { title: 'Releases and builds', file: 'docs/RELEASES.md' },
  accounts: { title: 'Accounts and security', file: 'docs/ACCOUNTS.md' },
  sso: { title: 'Single sign-on (SAML)', file: 'docs/SSO.md' },
  'api-limits': { title: 'API limits', file: 'docs/API-LIMITS.md' },
  production: { title: 'Production install', file: 'docs/PRODUCTION.md' },
  failover: { title: 'Database failover', file: 'docs/FAILOVER.md' },
  scaling: { title: 'Scaling', file: 'docs/SCALING.md' },
  monitoring: { title: 'Monitoring', file: 'docs/MONITORING.md' },
  events: { title: 'Events and webhooks', file: 'docs/EVENTS.md' },
  support: { title: 'Support and help desk', file: 'docs/SUPPORT.md' },
  benchmark: { title: 'Benchmark', file: 'docs/BENCHMARK.md' },
  development: { title: 'Development', file: 'docs/DEVELOPMENT.md' },
  agent: { title: 'Device agent', file: 'packages/agent/README.md' },
};

export const docPageOf = (page: string): DocPage | undefined =>
  Object.hasOwn(docPages, page) ? docPages[page] : undefined;

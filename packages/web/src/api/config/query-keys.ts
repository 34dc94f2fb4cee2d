import { queryRoots } from '../query-roots.js';

// The server's public configuration, read once per session. The screens that need the
// deployment's settings (captcha, CLI networks, analytics, image builds) and those that need its
// device access settings (maps, public device URLs) keep a cache entry each.
export const configKeys = {
  all: queryRoots.config,
  public: [...queryRoots.config, 'public'] as const,
  server: [...queryRoots.config, 'server'] as const,
};

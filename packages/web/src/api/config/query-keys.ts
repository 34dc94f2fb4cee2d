import { queryRoots } from '../query-roots.js';

// The server's public configuration (GET /config), read once per session: one cache entry that
// every screen needing a setting (captcha, CLI networks, analytics, image builds, maps, public
// device URLs) shares.
export const configKeys = {
  public: queryRoots.config,
};

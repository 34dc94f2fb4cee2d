import type { Session } from '@flotilla/sdk/auth';
import { describe, expect, it } from 'vitest';
import { headerRedByDefault } from './header-colour.js';

const session = (extra: Partial<Session>): Session => ({
  userId: 7,
  authTime: 0,
  issuedAt: 0,
  expiresAt: 1,
  permissions: [],
  ...extra,
});

describe('headerRedByDefault', () => {
  it('is red for platform administrators and while logged in as someone', () => {
    expect(headerRedByDefault(session({ permissions: ['admin.home'] }))).toBe(true);
    expect(headerRedByDefault(session({ actualUser: 1 }))).toBe(true);
  });

  it('is not for everyone else', () => {
    expect(headerRedByDefault(session({ permissions: ['support.home'] }))).toBe(false);
    expect(headerRedByDefault(null)).toBe(false);
  });
});

import type { Session } from '@flotilla/sdk/auth';
import { describe, expect, it } from 'vitest';
import { headerColourOf } from './header-colour.js';

const session = (extra: Partial<Session>): Session => ({
  userId: 7,
  authTime: 0,
  issuedAt: 0,
  expiresAt: 1,
  permissions: [],
  ...extra,
});

describe('headerColourOf', () => {
  it('is red for platform administrators and while logged in as someone', () => {
    expect(headerColourOf(session({ permissions: ['admin.home'] }))).toBe('error');
    expect(headerColourOf(session({ actualUser: 1 }))).toBe('error');
  });

  it('is the primary colour for everyone else', () => {
    expect(headerColourOf(session({ permissions: ['support.home'] }))).toBe('primary');
    expect(headerColourOf(null)).toBe('primary');
  });
});

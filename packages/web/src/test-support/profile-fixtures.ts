import { testUserId } from './fixtures.js';

// The signed-in test user's v7 user_profile row.
export const userProfileRow = (overrides: Record<string, unknown> = {}) => ({
  id: testUserId,
  is_of__user: { __id: testUserId },
  email: 'ada@x.test',
  first_name: 'Ada',
  last_name: 'Lovelace',
  company: 'Analytical Engines',
  account_type: 'professional',
  has_disabled_newsletter: false,
  has_password_set: true,
  is_verified: true,
  must_be_verified: false,
  created_at: '2025-01-02T03:04:05.000Z',
  username: 'ada',
  ...overrides,
});

// The signed-in test user's v7 user row (pending_email: a new address waiting for its link).
export const ownUserRow = (overrides: Record<string, unknown> = {}) => ({
  id: testUserId,
  username: 'ada',
  pending_email: null,
  ...overrides,
});

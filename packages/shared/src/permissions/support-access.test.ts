import { describe, expect, it } from 'vitest';
import { grants, platformRolePermissions } from './permissions.js';
import {
  isSupportAccessGranted,
  supportAccessNotice,
  supportAgentResourcesWithoutReach,
  supportReachOf,
} from './support-access.js';

const now = Date.parse('2026-06-01T12:00:00.000Z');

describe('support access', () => {
  it('grants until the date, not at or after it, and never without one', () => {
    expect(isSupportAccessGranted('2026-06-01T12:00:01.000Z', now)).toBe(true);
    expect(isSupportAccessGranted('2026-06-01T12:00:00.000Z', now)).toBe(false);
    expect(isSupportAccessGranted('2026-05-01T00:00:00.000Z', now)).toBe(false);
    expect(isSupportAccessGranted(null, now)).toBe(false);
    expect(isSupportAccessGranted(undefined, now)).toBe(false);
    expect(isSupportAccessGranted('not a date', now)).toBe(false);
  });

  it('says "no access" or "access until" the date', () => {
    expect(supportAccessNotice(null, now)).toEqual({ kind: 'none' });
    expect(supportAccessNotice('2026-05-01T00:00:00.000Z', now)).toEqual({ kind: 'none' });
    expect(supportAccessNotice('2026-07-01T00:00:00.000Z', now)).toEqual({
      kind: 'until',
      until: new Date('2026-07-01T00:00:00.000Z'),
    });
  });

  it('reaches every resource a support agent holds a permission on (tickets aside)', () => {
    expect(supportAgentResourcesWithoutReach()).toEqual([]);
    for (const resource of ['device', 'application', 'organization', 'organization_membership']) {
      expect(resource in supportReachOf).toBe(true);
    }
  });

  it('lets support agents read identity-provider memberships and change nothing there', () => {
    const agent = platformRolePermissions.support_agent;
    expect(grants(agent, 'identity_provider_membership', 'read')).toBe(true);
    for (const action of ['create', 'update', 'delete']) {
      expect(grants(agent, 'identity_provider_membership', action)).toBe(false);
      expect(grants(agent, 'organization', action)).toBe(false);
      expect(grants(agent, 'organization_membership', action)).toBe(false);
    }
    expect(grants(agent, 'identity_provider', 'read')).toBe(false);
    expect(grants(agent, 'saml_account', 'read')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { gateOfFleetRole, type PlanFacts, planAllows } from './plan-gates.js';

const free: PlanFacts = { billingEnabled: true, billingCode: 'free', isPaid: false, features: [] };
const pilot: PlanFacts = {
  billingEnabled: true,
  billingCode: 'pilot-v2',
  isPaid: true,
  features: [],
};

describe('planAllows', () => {
  it('lets everything through when billing is off', () => {
    const off = { ...free, billingEnabled: false };
    for (const gate of [
      'safe-roles',
      'operator-role',
      'deactivation',
      'private-support',
      'saml',
    ] as const) {
      expect(planAllows(off, gate)).toEqual({ allowed: true });
    }
  });

  it('gives deactivation and private support to paid plans only', () => {
    expect(planAllows(free, 'deactivation')).toEqual({
      allowed: false,
      reason: 'Upgrade your plan to enable deactivation',
    });
    expect(planAllows(free, 'private-support').allowed).toBe(false);
    expect(planAllows(pilot, 'deactivation').allowed).toBe(true);
    expect(planAllows(pilot, 'private-support').allowed).toBe(true);
  });

  it('gives safe roles to a paid plan with the preview add-on only', () => {
    expect(planAllows(pilot, 'safe-roles')).toEqual({
      allowed: false,
      reason: 'Limited roles need the safe roles preview add-on',
    });
    const withAddon = { ...pilot, features: ['safe-roles-preview-addon'] };
    expect(planAllows(withAddon, 'safe-roles').allowed).toBe(true);
    // The add-on alone on the free plan is not enough.
    expect(planAllows({ ...free, features: ['safe-roles-preview-addon'] }, 'safe-roles')).toEqual({
      allowed: false,
      reason: 'Upgrade your plan to use limited roles',
    });
    // A plan marked paid but coded free is still the free plan.
    expect(
      planAllows({ ...free, isPaid: true, features: ['safe-roles-preview-addon'] }, 'safe-roles')
        .allowed,
    ).toBe(false);
  });

  it('gives SAML to plans providing saml_access, paid or not', () => {
    expect(planAllows(pilot, 'saml').allowed).toBe(false);
    expect(planAllows({ ...pilot, features: ['saml_access'] }, 'saml').allowed).toBe(true);
  });
});

describe('gateOfFleetRole', () => {
  it('gates limited roles and the operator role, no other', () => {
    expect(gateOfFleetRole('safe-developer')).toBe('safe-roles');
    expect(gateOfFleetRole('safe-operator')).toBe('safe-roles');
    expect(gateOfFleetRole('operator')).toBe('operator-role');
    for (const role of ['developer', 'observer', 'administrator'])
      expect(gateOfFleetRole(role)).toBeUndefined();
    expect(planAllows(free, 'operator-role')).toEqual({
      allowed: false,
      reason: 'Upgrade your plan to use the operator role',
    });
    expect(planAllows(pilot, 'operator-role').allowed).toBe(true);
  });
});

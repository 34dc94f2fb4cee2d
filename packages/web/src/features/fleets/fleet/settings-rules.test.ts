import { describe, expect, it } from 'vitest';
import type { ApplicationType } from '../../../fleet/api-fleet-detail.js';
import { typeOptionState } from './ApplicationTypeSetting.js';
import { repositoryUrlProblem } from './RepositorySettings.js';
import { supportAccessText } from '../../../fleet/support-access.js';
import { transferTargets } from './TransferOwnership.js';

const type = (id: number, extra: Partial<ApplicationType> = {}): ApplicationType => ({
  id,
  slug: `type-${id}`,
  name: `Type ${id}`,
  description: null,
  is_legacy: false,
  requires_payment: false,
  supports_multicontainer: true,
  ...extra,
});

describe('application type options', () => {
  it('allows only ok options', () => {
    const current = type(1);
    expect(typeOptionState(current, current, 3)).toBe('current');
    expect(typeOptionState(type(2), current, 3)).toBe('ok');
    expect(typeOptionState(type(3, { supports_multicontainer: false }), current, 2)).toBe(
      'needs-multicontainer',
    );
    expect(typeOptionState(type(3, { supports_multicontainer: false }), current, 1)).toBe('ok');
    expect(typeOptionState(type(4, { requires_payment: true }), current, 1)).toBe(
      'needs-plan-upgrade',
    );
    expect(typeOptionState(type(5, { is_legacy: true }), current, 1)).toBe('discontinued');
  });
});

describe('support access text', () => {
  const now = Date.parse('2025-01-10T00:00:00Z');
  it('is off, expires or expired', () => {
    expect(supportAccessText(null, now)).toBe('Support access is off');
    expect(supportAccessText('2025-01-15T00:00:00Z', now)).toMatch(/^Support access expires on /);
    expect(supportAccessText('2025-01-01T00:00:00Z', now)).toMatch(/^Support access expired on /);
  });
});

describe('repository URL', () => {
  it('needs an owner and a repository', () => {
    expect(repositoryUrlProblem('')).toBeUndefined();
    expect(repositoryUrlProblem('https://github.com/acme/sensors')).toBeUndefined();
    expect(repositoryUrlProblem('https://github.com/acme')).toBeDefined();
    expect(repositoryUrlProblem('acme/sensors')).toBeDefined();
  });
});

describe('transfer targets', () => {
  const organization = (id: number, role: string, names: string[]) => ({
    id,
    name: `Org ${id}`,
    organization_membership: [{ organization_membership_role: [{ name: role }] }],
    application: names.map((app_name) => ({ app_name })),
  });
  it('keeps other administered organizations without a same-named application', () => {
    const application = {
      app_name: 'Sensors',
      organization: [{ id: 1, name: 'Org 1', handle: 'o1' }],
    };
    expect(
      transferTargets(
        [
          organization(1, 'administrator', []),
          organization(2, 'administrator', ['other']),
          organization(3, 'member', []),
          organization(4, 'administrator', ['sensors']),
        ],
        application,
      ),
    ).toEqual([{ id: 2, name: 'Org 2' }]);
  });
});

import {
  deviceKeyWritableFields,
  fieldPermissions,
  type KeyWritableFields,
  permissionParts,
  provisioningKeyWritableFields,
} from '@flotilla/shared/permissions/field-permissions';
import { describe, expect, it } from 'vitest';
import { deviceReportFields } from '@flotilla/shared/device-protocol/state-report-v3';
import type { Field } from '../../model/model-types.js';
import { v7Model } from '../../model/v7-model.js';

const fieldOf = (resource: string, name: string): Field | undefined =>
  v7Model.resources.get(resource)?.fields.get(name);

const writable = (field: Field | undefined, mode: 'create' | 'update'): boolean =>
  field !== undefined &&
  !field.readOnly &&
  !field.computed &&
  !field.hidden &&
  (mode === 'create' || !field.createOnly);

// The shared tables name model fields by their v7 names; a typo would silently guard nothing.
describe('the shared field tables match the model', () => {
  it('guards writable fields, with permissions on the row or on the row `via` leads to', () => {
    for (const [resource, fields] of Object.entries(fieldPermissions)) {
      for (const [name, rule] of Object.entries(fields)) {
        expect(writable(fieldOf(resource, name), 'update'), `${resource}.${name}`).toBe(true);
        const { resource: ruleResource } = permissionParts(rule.permission);
        const holder = rule.via === undefined ? resource : fieldOf(resource, rule.via)?.references;
        expect(holder, `${resource}.${name}: ${rule.permission}`).toBe(ruleResource);
      }
    }
  });

  it.each([
    ['device key', deviceKeyWritableFields],
    ['provisioning key', provisioningKeyWritableFields],
  ] as const)('lets a %s write only fields that exist and are writable', (_, table) => {
    for (const [resource, modes] of Object.entries<KeyWritableFields>(table)) {
      for (const mode of ['create', 'update'] as const) {
        for (const name of modes[mode] ?? []) {
          expect(writable(fieldOf(resource, name), mode), `${mode} ${resource}.${name}`).toBe(true);
        }
      }
    }
  });

  it('lets a device key PATCH directly every visible column a state report sets', () => {
    const reported = Object.keys(deviceReportFields).filter(
      (name) => fieldOf('device', name)?.hidden !== true,
    );
    expect(reported.length).toBeGreaterThan(10);
    expect(deviceKeyWritableFields.device?.update).toEqual(expect.arrayContaining(reported));
  });
});

import { v7Fields } from '@flotilla/sdk/resources/v7-fields';
import { buildModel } from '@flotilla/server/model/build-model';
import { bool, text } from '@flotilla/server/model/definitions/field-kinds';
import type { ResourceDefinition } from '@flotilla/server/model/model-types';
import { v7Definitions, v7Model, v7ResourceSynonyms } from '@flotilla/server/model/v7-model';
import { describe, expect, it } from 'vitest';
import { type RowDescriptions, sdkModelDrift } from './sdk-model-drift.js';

// The SDK's description with one resource's properties replaced.
const withRow = (
  resource: string,
  change: (row: Record<string, string>) => Record<string, string>,
): RowDescriptions => {
  const copy: Record<string, Readonly<Record<string, string>>> = { ...v7Fields };
  copy[resource] = change({ ...copy[resource] });
  return copy;
};

const without = (row: Record<string, string>, name: string): Record<string, string> =>
  Object.fromEntries(Object.entries(row).filter(([key]) => key !== name));

// The server's model with one resource's field definitions replaced.
const serverWith = (
  resource: string,
  change: (fields: ResourceDefinition['fields']) => ResourceDefinition['fields'],
) => {
  const definitions: Record<string, ResourceDefinition> = { ...v7Definitions };
  const definition = definitions[resource];
  if (definition === undefined) throw new Error(`no resource ${resource}`);
  definitions[resource] = { ...definition, fields: change({ ...definition.fields }) };
  return buildModel(definitions, v7ResourceSynonyms);
};

describe("the SDK's row types against the server's model", () => {
  it('agree on every resource, field, navigation and kind', () => {
    expect(Object.keys(v7Fields).length).toBeGreaterThan(30);
    expect(sdkModelDrift(v7Fields, v7Model)).toEqual([]);
  });

  describe('a change on the SDK side fails', () => {
    it('a field renamed', () => {
      const sdk = withRow('device', (row) => ({ ...without(row, 'note'), notes: 'string | null' }));
      expect(sdkModelDrift(sdk, v7Model)).toEqual([
        'device.note: string on the server, missing',
        'device.notes: string | null in the SDK, not served by the server',
      ]);
    });

    it('a field added', () => {
      const sdk = withRow('release', (row) => ({ ...row, is_shiny: 'boolean' }));
      expect(sdkModelDrift(sdk, v7Model)).toEqual([
        'release.is_shiny: boolean in the SDK, not served by the server',
      ]);
    });

    it('a field dropped', () => {
      const sdk = withRow('organization', (row) => without(row, 'website'));
      expect(sdkModelDrift(sdk, v7Model)).toEqual([
        'organization.website: string on the server, missing',
      ]);
    });

    it('a scalar of another kind, a date typed as text, a navigation to another target', () => {
      const sdk = withRow('device', (row) => ({
        ...row,
        memory_usage: 'string | null',
        last_vpn_event: 'string | null',
        belongs_to__application: 'to-one release',
      }));
      expect(sdkModelDrift(sdk, v7Model)).toEqual([
        'device.belongs_to__application: to-one release in the SDK, to-one application on the server',
        'device.last_vpn_event: string | null in the SDK, date on the server',
        'device.memory_usage: string | null in the SDK, number on the server',
      ]);
    });

    it('a nullable id or required field, a non-null field that reads as null on fellow members', () => {
      const sdk = withRow('user', (row) => ({
        ...row,
        id: 'number | null',
        username: 'string | null',
        pending_email: 'string',
      }));
      expect(sdkModelDrift(sdk, v7Model)).toEqual([
        'user.id: number | null in the SDK, never null on the server',
        'user.username: string | null in the SDK, never null on the server',
        "user.pending_email: string in the SDK, null on other users' rows",
      ]);
    });

    it('a to-many navigation the server does not have, or to another target', () => {
      const sdk = withRow('application', (row) => ({
        ...row,
        owns__device: 'to-many release',
        owns__gadget: 'to-many device',
      }));
      expect(sdkModelDrift(sdk, v7Model)).toEqual([
        'application.owns__device: to-many release in the SDK, to-many device on the server',
        'application.owns__gadget: to-many device in the SDK, no to-many navigation on the server',
      ]);
    });

    it('a field described under a synonym instead of its own name', () => {
      const sdk = withRow('image_install', (row) => ({
        ...without(row, 'installs__image'),
        image: 'to-one image',
      }));
      expect(sdkModelDrift(sdk, v7Model)).toEqual([
        'image_install.installs__image: to-one image on the server, missing',
        'image_install.image: to-one image in the SDK, not served by the server',
      ]);
    });

    it('a resource the server does not serve', () => {
      const sdk: RowDescriptions = { ...v7Fields, gadget: { id: 'number' } };
      expect(sdkModelDrift(sdk, v7Model)).toEqual(['gadget: not a resource of the server']);
    });
  });

  describe('a change on the server side fails', () => {
    it('a field added', () => {
      const server = serverWith('device', (fields) => ({ ...fields, is_shiny: bool() }));
      expect(sdkModelDrift(v7Fields, server)).toEqual([
        'device.is_shiny: boolean on the server, missing',
      ]);
    });

    it('a field renamed', () => {
      const server = serverWith('team', (fields) => {
        const { description, ...rest } = fields;
        return description === undefined ? rest : { ...rest, summary: description };
      });
      expect(sdkModelDrift(v7Fields, server)).toEqual([
        'team.summary: string on the server, missing',
        'team.description: string | null in the SDK, not served by the server',
      ]);
    });

    it('a field retyped or hidden', () => {
      const server = serverWith('release', (fields) => ({
        ...fields,
        semver_major: text(),
        build_log: text({ hidden: true }),
      }));
      expect(sdkModelDrift(v7Fields, server)).toEqual([
        'release.build_log: string | null in the SDK, not served by the server',
        'release.semver_major: number in the SDK, string on the server',
      ]);
    });

    it('a reverse navigation renamed', () => {
      const server = serverWith('release', (fields) => {
        const tracked = fields.belongs_to__application;
        if (tracked === undefined) throw new Error('release without a fleet');
        return { ...fields, belongs_to__application: { ...tracked, reverse: 'has__release' } };
      });
      expect(sdkModelDrift(v7Fields, server)).toEqual([
        'application.owns__release: to-many release in the SDK, no to-many navigation on the server',
      ]);
    });
  });
});

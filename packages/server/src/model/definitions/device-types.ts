import type { ResourceDefinition } from '../model-types.js';
import { bool, id, json, ref, text } from './field-kinds.js';
import { everyone } from './sql-helpers.js';

// The hardware catalogue, seeded by 0002-catalogue.sql and read by everyone.
export const deviceTypeResources: Record<string, ResourceDefinition> = {
  cpu_architecture: {
    fields: { id, slug: text({ readOnly: true }) },
    scope: { public: everyone },
    alternateKeys: [['slug']],
    readOnly: true,
  },
  device_manufacturer: {
    fields: { id, slug: text({ readOnly: true }), name: text({ readOnly: true }) },
    scope: { public: everyone },
    alternateKeys: [['slug']],
    readOnly: true,
  },
  device_family: {
    fields: {
      id,
      slug: text({ readOnly: true }),
      name: text({ readOnly: true }),
      is_manufactured_by__device_manufacturer: ref('device_manufacturer', undefined, {
        readOnly: true,
      }),
    },
    scope: { public: everyone },
    alternateKeys: [['slug']],
    readOnly: true,
  },
  device_type: {
    fields: {
      id,
      slug: text({ readOnly: true }),
      name: text({ readOnly: true }),
      is_of__cpu_architecture: ref(
        'cpu_architecture',
        ['device_type', 'is_supported_by__device_type'],
        { readOnly: true },
      ),
      logo: text({ readOnly: true }),
      contract: json({ readOnly: true }),
      belongs_to__device_family: ref('device_family', 'device_type', { readOnly: true }),
      is_private: bool({ readOnly: true }),
    },
    synonyms: { supports__cpu_architecture: 'is_of__cpu_architecture' },
    scope: { public: (row) => `NOT ${row}."is_private"` },
    alternateKeys: [['slug']],
    readOnly: true,
  },
  // Every slug a device type answers to, including its own: the SDK resolves every device type
  // through `device_type_alias/any(a: a/is_referenced_by__alias eq '<slug>')`.
  device_type_alias: {
    fields: {
      id,
      device_type: ref(
        'device_type',
        ['device_type__is_referenced_by__alias', 'device_type_alias', 'is_referenced_by__alias'],
        { readOnly: true },
      ),
      is_referenced_by__alias: text({ readOnly: true }),
    },
    scope: { public: everyone },
    alternateKeys: [['is_referenced_by__alias']],
    readOnly: true,
  },
};

import type { ResourceDefinition } from '../model-types.js';
import { createdAt, date, id, ref, shortText, text } from './field-kinds.js';
import { alias } from './sql-helpers.js';

// API keys belong to an actor: a user (named keys), a fleet (provisioning keys) or a device (device
// keys). Keys are minted by /api-key/* endpoints; /v7 only lists, renames and deletes them.
export const apiKeyResources: Record<string, ResourceDefinition> = {
  api_key: {
    fields: {
      id,
      created_at: createdAt,
      expiry_date: date(),
      is_of__actor: ref('actor', 'api_key', { readOnly: true }),
      name: shortText(),
      description: text(),
      // Only a hash of the secret is stored; the prefix lets a user recognise a key.
      key_hash: text({ hidden: true }),
      key_prefix: text({ hidden: true }),
    },
    scope: {
      actor: (row) => `${row}."is_of__actor"`,
      // Provisioning keys belong to the fleet whose actor they are; device keys to the fleet of
      // their device (fleet roles may manage both).
      application: (row) => {
        const app = alias('ka', row);
        const dev = alias('kd', row);
        return `coalesce((SELECT ${app}."id" FROM "application" ${app} WHERE ${app}."actor" = ${row}."is_of__actor"), (SELECT ${dev}."belongs_to__application" FROM "device" ${dev} WHERE ${dev}."actor" = ${row}."is_of__actor"))`;
      },
    },
  },
};

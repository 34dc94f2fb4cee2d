import type { ResourceDefinition } from '../model-types.js';
import { createdAt, id, ref, shortText, text } from './field-kinds.js';

// OAuth applications and users' authorizations of them. Never
// written through /v7 but for an owner deleting an authorization: platform administrators
// register applications through /admin/v1/oauth-applications, and POST /oauth/authorize records
// an authorization (features/oauth).
export const oauthResources: Record<string, ResourceDefinition> = {
  // Public fields only: who registered an application (is_created_by__user) is not served here
  // (a navigation to the administrator's user row would tell every user who it is).
  oauth_application: {
    fields: {
      id,
      // Not in v7: when it was registered.
      created_at: createdAt,
      client_id: shortText({ readOnly: true }),
      name: shortText({ readOnly: true }),
      description: text({ readOnly: true }),
      redirect_uri: text({ readOnly: true }),
      // A confidential client's secret, hashed (migration 0024): never served.
      client_secret_hash: text({ hidden: true }),
    },
    // Every signed-in user reads them (shared permissions `signedInPermissions`): the consent page.
    alternateKeys: [['client_id']],
    readOnly: true,
  },
  oauth_application_authorization: {
    fields: {
      id,
      // Not in v7: when the user allowed the application (Preferences lists it).
      created_at: createdAt,
      belongs_to__user: ref('user', undefined, { readOnly: true }),
      is_for__oauth_application: ref('oauth_application', 'oauth_application_authorization', {
        readOnly: true,
      }),
    },
    scope: { user: (row) => `${row}."belongs_to__user"` },
    alternateKeys: [['belongs_to__user', 'is_for__oauth_application']],
  },
};

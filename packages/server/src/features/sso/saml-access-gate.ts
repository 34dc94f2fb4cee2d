import type { Queryable } from '../../infra/db/database.js';

// The plan gate of SAML: an organization's plan must include the `saml_access` feature before its
// administrators add or attach identity providers. Billing is not built yet (no plan to ask), so
// every organization passes; when shared/billing exists, this is the one place that asks it.
export const assertSamlAccessAllowed = async (
  _tx: Queryable,
  _organizationId: number,
): Promise<void> => {};

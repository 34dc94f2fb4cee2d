// The v7 data model as the OData engine sees it. Resource and field names are balena's v7 names
// (the SDK builds URLs from them); each resource is one table and each field one column of the same
// name, except computed fields, which are SQL expressions over the row.

export type ScalarType = 'integer' | 'bigint' | 'real' | 'text' | 'boolean' | 'date' | 'json';

export type FieldDefinition = {
  type: ScalarType;
  // A to-one navigation stored as this foreign-key column, e.g. device.belongs_to__application.
  references?: string;
  // Name(s) of the reverse (to-many) navigation this foreign key creates on the referenced
  // resource; several names when v7 has synonyms (e.g. organization_membership_tag and
  // organization_membership__has__tag_key).
  reverse?: string | readonly string[];
  // Stored, but clients may not set it (ids, timestamps, server-maintained state).
  readOnly?: boolean;
  // Clients may set it on create only.
  createOnly?: boolean;
  // Must be given on create (NOT NULL without a default).
  required?: boolean;
  // Never returned nor filterable (secrets such as password hashes).
  hidden?: boolean;
  // Longest text a client may write, in characters; text fields default to
  // textLengthLimits.text (shared/constants/limits.ts).
  maxLength?: number;
  // SQL expression of a computed field; `row` is the quoted alias of the resource's row.
  computed?: (row: string) => string;
  // Served only on the caller's own row (the resource's `user` scope); on anyone else's row it
  // reads as null, also in $filter and $orderby (a user's actor id seen by a fellow member).
  ownerOnly?: boolean;
  // SQL with the same value as `<field> = <value>` on every row (NULL exactly where that is), in
  // a form PostgreSQL can answer from an index: `$filter=overall_status eq 'operational'` counts
  // from the status index instead of computing the status of every device. Undefined: the plain
  // comparison. The value is part of the compiled statement's key (statement-cache.ts).
  equals?: (row: string, value: LiteralValue) => string | undefined;
  // `<reverse of via>/$count($filter=<field> eq <value>)` in a form that does not read every row:
  // the number of rows whose foreign key `via` is the SQL `parent` (a parent row's id) and whose
  // field equals `value` (e.g. a fleet's devices in one overall_status, from a maintained tally).
  // Used only where the actor's read permission on these rows depends on `via` alone.
  countEquals?: { via: string; count: (parent: string, value: LiteralValue) => string | undefined };
};

// A literal of a $filter, as the engine hands it to FieldDefinition.equals.
export type LiteralValue = string | number | boolean;

export type ExtraNavigation = {
  target: string;
  many: boolean;
  // SQL condition relating the parent row to the target row (both quoted aliases).
  join: (parent: string, child: string) => string;
};

// How a row relates to what permissions are granted on: SQL expressions over the row's quoted
// alias. A fleet role grants on rows whose `application` is one of the caller's fleets, an
// organization role on rows whose `organization` is one of the caller's organizations, own-row
// permissions on rows whose `user` (or `actor`) is the caller, device keys on rows whose `device`
// is the calling device. `public` is the condition under which anyone may read the row.
export type ResourceScope = {
  application?: (row: string) => string;
  organization?: (row: string) => string;
  // A row of several organizations (an identity provider serves each it is attached to): a
  // parenthesised subquery selecting their ids. An organization role on any of them grants on
  // the row.
  organizations?: (row: string) => string;
  user?: (row: string) => string;
  actor?: (row: string) => string;
  device?: (row: string) => string;
  public?: (row: string) => string;
};

// Rows of another resource that make a row of this one readable to whoever may read them: a user
// is readable to those who may read one of their memberships (they share an organization, fleet
// or team). `on` relates this resource's row to the other one (both quoted aliases). Only
// resources granted in shared/permissions `relatedRowReadPermissions` use it.
export type ReadableThrough = {
  resource: string;
  on: (row: string, other: string) => string;
};

export type ResourceDefinition = {
  scope?: ResourceScope;
  readableThrough?: readonly ReadableThrough[];
  fields: Record<string, FieldDefinition>;
  // Natural keys usable in key position, e.g. device(uuid='...').
  alternateKeys?: string[][];
  // v7 synonyms of fields on this resource: alias -> canonical field name (e.g. organization ->
  // is_member_of__organization). A synonym behaves exactly like the field it names.
  synonyms?: Record<string, string>;
  // Navigations that are not a plain foreign key: many-to-many links and virtual relations.
  navigations?: Record<string, ExtraNavigation>;
  // Set when the resource is served but never written through /v7 (catalogues, virtual views).
  readOnly?: boolean;
  // Default field values on create that depend on the request (e.g. slug generation) live in hooks.
};

export type Navigation = {
  name: string;
  target: string;
  many: boolean;
  // For a to-one navigation: SQL for the target's id on the parent row (a column or a computed
  // expression such as device.should_be_running__release).
  local?: (row: string) => string;
  join: (parent: string, child: string) => string;
};

// `column` is the stored column (differs from `name` for synonyms).
export type Field = FieldDefinition & { name: string; column: string };

export type Resource = {
  name: string;
  fields: ReadonlyMap<string, Field>;
  navigations: ReadonlyMap<string, Navigation>;
  alternateKeys: readonly (readonly string[])[];
  readOnly: boolean;
  scope: ResourceScope;
  // ReadableThrough with the other resource resolved.
  readableThrough: readonly { resource: Resource; on: ReadableThrough['on'] }[];
};

export type Model = {
  resources: ReadonlyMap<string, Resource>;
  // Other v7 names of the same resources (verb-phrase names such as device__has__tag_key).
  aliases: ReadonlyMap<string, string>;
};

import type { Field, Model, ScalarType } from '@flotilla/server/model/model-types';

// The SDK's description of its row types (packages/sdk/src/resources/v7-fields.ts), widened so a
// test can hand in an altered copy.
export type RowDescriptions = Readonly<Record<string, Readonly<Record<string, string>>>>;

const kindOfScalar: Record<ScalarType, string> = {
  integer: 'number',
  bigint: 'number',
  real: 'number',
  text: 'string',
  boolean: 'boolean',
  date: 'date',
  json: 'json',
};

// How the SDK describes what the server serves for this field, nullability aside.
const kindOfField = (field: Field): string =>
  field.references === undefined ? kindOfScalar[field.type] : `to-one ${field.references}`;

// A field's own name, not one of its v7 synonyms, and one the server returns.
const isServed = (field: Field | undefined): field is Field =>
  field !== undefined && field.hidden !== true && field.column === field.name;

// The model says when a field is never null: ids, and fields that must be given on create (NOT
// NULL without a default) unless they read as null on other users' rows. Whether any other field
// may be null is the database's business (the model-schema integration test), not the model's.
const neverNull = (field: Field): boolean =>
  field.ownerOnly !== true && (field.name === 'id' || field.required === true);

const nullSuffix = ' | null';

// Where the SDK's row types and the server's model disagree, one line each: every field the
// server serves must be described with its kind, every described field and to-one navigation must
// be served, every to-many navigation the SDK expands must exist with the same target, and a
// field that reads as null on another user's row (or may not be null) must be typed so.
export const sdkModelDrift = (sdk: RowDescriptions, server: Model): string[] => {
  const problems: string[] = [];
  for (const [resourceName, described] of Object.entries(sdk)) {
    const resource = server.resources.get(resourceName);
    if (resource === undefined) {
      problems.push(`${resourceName}: not a resource of the server`);
      continue;
    }
    for (const field of resource.fields.values()) {
      if (isServed(field) && !(field.name in described)) {
        problems.push(
          `${resourceName}.${field.name}: ${kindOfField(field)} on the server, missing`,
        );
      }
    }
    for (const [name, description] of Object.entries(described)) {
      const where = `${resourceName}.${name}: ${description} in the SDK`;
      const nullable = description.endsWith(nullSuffix);
      const kind = nullable ? description.slice(0, -nullSuffix.length) : description;
      if (kind.startsWith('to-many ')) {
        const navigation = resource.navigations.get(name);
        if (navigation?.many !== true) {
          problems.push(`${where}, no to-many navigation on the server`);
        } else if (kind !== `to-many ${navigation.target}`) {
          problems.push(`${where}, to-many ${navigation.target} on the server`);
        }
        continue;
      }
      const field = resource.fields.get(name);
      if (!isServed(field)) {
        problems.push(`${where}, not served by the server`);
        continue;
      }
      if (kind !== kindOfField(field)) {
        problems.push(`${where}, ${kindOfField(field)} on the server`);
      }
      if (nullable && neverNull(field)) problems.push(`${where}, never null on the server`);
      if (!nullable && field.ownerOnly === true) {
        problems.push(`${where}, null on other users' rows`);
      }
    }
  }
  return problems;
};

// Value shapes of the v7 data API (wire contract, section 3).

// An ISO 8601 timestamp as the API sends it.
export type DateTime = string;

export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };

// A to-one navigation: `{ __id }` when selected but not expanded, an array (of one) when
// expanded.
export type ToOne<Target> = { __id: number } | Target[];

// A to-one navigation whose foreign key may be empty.
export type OptionalToOne<Target> = ToOne<Target> | null;

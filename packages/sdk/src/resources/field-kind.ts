import type { ReleaseImage } from './device-state.js';
import type { OrganizationMembershipTag } from './organization-membership.js';
import type { V7Model, V7Resource } from './v7-model.js';

// The runtime description of one property of a v7 row, spelled from its TypeScript type so the
// row types can be compared with the server's model (which only exists at runtime):
// - a scalar: 'string', 'number', 'boolean', 'date' or 'json' (an object stored as JSON);
// - a to-one navigation: 'to-one <target resource>';
// - a to-many navigation (a reverse navigation, present only when expanded): 'to-many <target>';
// each followed by ' | null' when the row type allows null.

// Targets of navigations the SDK types inline (`ToOne<{ id: number }>`) or only as expanded
// rows, not as resources of V7Model.
export type TargetOutsideV7Model =
  | 'actor'
  | 'device_family'
  | 'identity_provider'
  | 'organization_membership_tag'
  | 'release_image'
  | 'service_instance';

type Row<R extends V7Resource> = V7Model[R]['Read'];

// The resource whose row type is exactly `T` (each assignable to the other).
type ResourceOf<T> = {
  [R in V7Resource]: [T] extends [Row<R>] ? ([Row<R>] extends [T] ? R : never) : never;
}[V7Resource];

type TargetOf<T> = [ResourceOf<T>] extends [never] ? TargetOutsideV7Model : ResourceOf<T>;

type Present<V> = Exclude<V, null | undefined>;

type ScalarKindOf<V> = [V] extends [boolean]
  ? 'boolean'
  : [V] extends [number]
    ? 'number'
    : // Dates are ISO strings (`DateTime = string`), so a string property may be described as
      // either; the comparison with the server tells them apart.
      [V] extends [string]
      ? 'string' | 'date'
      : [V] extends [object]
        ? 'json'
        : never;

// A to-one navigation reads `{ __id }` or the expanded target row in an array (ToOne<Target>).
type BaseKind<V> = [V] extends [readonly (infer Target)[]]
  ? `to-many ${TargetOf<Target>}`
  : [Extract<V, readonly unknown[]>] extends [never]
    ? ScalarKindOf<V>
    : [{ __id: number }] extends [V]
      ? V extends readonly (infer Target)[]
        ? `to-one ${TargetOf<Target>}`
        : never
      : never;

export type FieldKind<V> = null extends V ? `${BaseKind<Present<V>>} | null` : BaseKind<Present<V>>;

// Every property of a row, required or not, with its kind: a property missing from the table or
// a name the row type does not have fails the type-check.
export type FieldTable<RowType> = { [K in keyof RowType]-?: FieldKind<RowType[K]> };

// Rows the console reads only expanded under another resource, never through a query of their own.
type ExpandedOnlyRows = {
  organization_membership_tag: OrganizationMembershipTag;
  release_image: ReleaseImage;
};

export type V7FieldTable = { [R in V7Resource]: FieldTable<Row<R>> } & {
  [R in keyof ExpandedOnlyRows]: FieldTable<ExpandedOnlyRows[R]>;
};

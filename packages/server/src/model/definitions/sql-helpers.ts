// SQL building blocks for computed fields, scopes and joins. `row` is always an already-quoted
// alias chosen by the engine; inner aliases are derived from it so nested subqueries (one resource's
// scope inside another's filter) never shadow each other.

export const q = (identifier: string): string => `"${identifier}"`;

// A fresh quoted alias for a subquery nested under `row`, e.g. alias('d', '"t0"') = "d_t0".
export const alias = (base: string, row: string): string =>
  q(`${base}_${row.replace(/[^A-Za-z0-9_]/g, '')}`);

// `column` of the `table` row whose id is `idSql` (a scalar subquery).
export const lookup = (table: string, column: string, idSql: string, inner: string): string =>
  `(SELECT ${inner}.${q(column)} FROM ${q(table)} ${inner} WHERE ${inner}."id" = ${idSql})`;

// The fleet of a device given the SQL of its id.
export const applicationOfDevice = (deviceIdSql: string, row: string): string =>
  lookup('device', 'belongs_to__application', deviceIdSql, alias('dev', row));

// The fleet of a release given the SQL of its id.
export const applicationOfRelease = (releaseIdSql: string, row: string): string =>
  lookup('release', 'belongs_to__application', releaseIdSql, alias('rel', row));

// The fleet of a service given the SQL of its id.
export const applicationOfService = (serviceIdSql: string, row: string): string =>
  lookup('service', 'application', serviceIdSql, alias('svc', row));

// Whether the fleet with this id is public. Written as membership of the (few) public fleets, an
// uncorrelated subquery PostgreSQL hashes once per statement, not a lookup per row: a fleet's
// 5,000 releases counted through the release scope cost one scan, not 5,000 lookups.
export const isPublicApplication = (applicationIdSql: string, row: string): string => {
  const pub = alias('pub', row);
  return `coalesce(${applicationIdSql} IN (SELECT ${pub}."id" FROM "application" ${pub} WHERE ${pub}."is_public"), false)`;
};

// Catalogue rows everybody may read.
export const everyone = (): string => 'true';

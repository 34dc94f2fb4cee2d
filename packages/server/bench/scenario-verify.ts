// What the scenarios' verify() steps share to compare the engine's answers with the SQL's.

// Dates come back as ISO strings from the API and as Date objects from pg.
export type DateValue = string | Date | null;

export const isoDate = (value: DateValue): string | null =>
  value === null ? null : new Date(value).toISOString();

export const difference = (label: string, engine: string, sql: string): string[] =>
  engine === sql
    ? []
    : [`${label}:\n    engine ${engine.slice(0, 400)}\n    sql    ${sql.slice(0, 400)}`];

import type { SqlValue } from '../db/database.js';

// Collects the values of one SQL statement; only placeholders are ever written into SQL text.
export type SqlParams = {
  add(value: SqlValue): string;
  values(): SqlValue[];
};

export const createSqlParams = (): SqlParams => {
  const list: SqlValue[] = [];
  return {
    add(value) {
      list.push(value);
      return `$${list.length}`;
    },
    values: () => list,
  };
};

export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

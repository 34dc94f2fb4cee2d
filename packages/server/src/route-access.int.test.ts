import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './infra/db/database.js';
import { type DeclaredRoute, declaredRoutes } from './infra/http/create-app.js';
import { buildServer } from './server.js';
import { createTestContext } from './test-support/test-context.js';
import { createTestDatabase } from './test-support/test-database.js';

// docs/ROUTES.md lists every route of the full server with its access level; this test keeps
// the list and the server equal.
const routesDoc = 'docs/ROUTES.md';
const documented = readFileSync(new URL(`../../../${routesDoc}`, import.meta.url), 'utf8');

const lineOf = (route: DeclaredRoute): string =>
  `| ${route.method} | \`${route.url}\` | ${route.access} |`;

// Table rows: | METHOD | `path` | access | (padding allowed, so a formatter may align them).
const parseTable = (markdown: string): Map<string, string> => {
  const rows = new Map<string, string>();
  for (const match of markdown.matchAll(
    /^\|\s*([A-Z]+)\s*\|\s*`([^`]+)`\s*\|\s*([a-z0-9-]+)\s*\|\s*$/gm,
  )) {
    const [, method = '', url = '', access = ''] = match;
    rows.set(`${method} ${url}`, access);
  }
  return rows;
};

let db: Database;
let app: FastifyInstance;
beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe(`every route and its access level (${routesDoc})`, () => {
  it('reads the table', () => {
    // Guards the parser against silently reading nothing.
    expect(parseTable(documented).size).toBeGreaterThan(20);
  });

  it('lists every route of the server, with the access it declares', () => {
    const table = parseTable(documented);
    const actual = declaredRoutes(app);
    const problems: string[] = [];
    for (const route of actual) {
      const listed = table.get(`${route.method} ${route.url}`);
      if (listed === undefined) {
        problems.push(`unlisted route: add this line to ${routesDoc}: ${lineOf(route)}`);
      } else if (listed !== route.access) {
        problems.push(
          `${route.method} ${route.url} declares access "${route.access}", ${routesDoc} says "${listed}": the line should read ${lineOf(route)}`,
        );
      }
    }
    const served = new Set(actual.map((route) => `${route.method} ${route.url}`));
    for (const key of table.keys()) {
      if (!served.has(key))
        problems.push(
          `${routesDoc} lists ${key}, which the server does not serve: remove its line`,
        );
    }
    expect(problems).toEqual([]);
  });
});

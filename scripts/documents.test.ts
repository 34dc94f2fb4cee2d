import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultDocPages } from '@flotilla/server/features/docs/register-docs';
import { docPages } from '../packages/web/src/api/doc-pages.js';
import { webFloor } from './eslint/import-boundaries.mjs';

// The lists the documents keep by hand, checked against the code they describe: the README's
// settings table against the settings the code reads, and the map in docs/ARCHITECTURE.md
// against the server's and the console's folders. Each comparison also runs on a doctored copy,
// so a check that cannot fail would show.

const repositoryFile = (relative: string): string =>
  readFileSync(new URL(`../${relative}`, import.meta.url), 'utf8');

const foldersOf = (relative: string): string[] =>
  readdirSync(new URL(`../${relative}`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

// What one list has that the other lacks, in words that say which side to fix.
const drift = (document: string, documented: string[], actual: string[]): string[] => [
  ...actual
    .filter((name) => !documented.includes(name))
    .map((name) => `${name} is missing from ${document}`),
  ...documented
    .filter((name) => !actual.includes(name))
    .map((name) => `${document} lists ${name}, which the code does not have`),
];

// The settings the code reads: the keys of the server's configuration schema (every variable
// the server reads, infra/config/config.ts, with the groups it spreads in from files beside it)
// and the variables `npm start` reads itself.
const schemaKeysOf = (source: string, opening: string, closing: string): RegExpMatchArray[] => {
  const schema = source.slice(source.indexOf(opening));
  return [...schema.slice(0, schema.indexOf(closing)).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)];
};

const settingsRead = (configSource: string, startSource: string): string[] => {
  const schemaKeys = [
    ...schemaKeysOf(configSource, 'const schema = z.object({', '\n});'),
    ...configGroups.flatMap((group) => schemaKeysOf(group.source, group.opening, '\n};')),
  ];
  const startKeys = [...startSource.matchAll(/process\.env\.(FLOTILLA_[A-Z0-9_]+)/g)];
  return [...new Set([...schemaKeys, ...startKeys].map((match) => match[1] ?? ''))].sort();
};

// The first column of the README's "Configuration" table.
const settingsDocumented = (readme: string): string[] => {
  const section = readme.slice(readme.indexOf('## Configuration'));
  const table = section.slice(0, section.indexOf('\n## ', 1));
  return [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1] ?? '').sort();
};

// The first column of the table under `heading` in docs/ARCHITECTURE.md.
const tableNames = (architecture: string, heading: string): string[] => {
  const start = architecture.indexOf(`\n${heading}\n`);
  if (start === -1) return [];
  const lines = architecture.slice(start + heading.length + 2).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const names: string[] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    const name = /^\| `([a-z0-9-]+)` \|/.exec(line)?.[1];
    if (name !== undefined) names.push(name);
  }
  return names.sort();
};

const readme = repositoryFile('README.md');
const architecture = repositoryFile('docs/ARCHITECTURE.md');
const configSource = repositoryFile('packages/server/src/infra/config/config.ts');
// The setting groups config.ts spreads into its schema.
const configGroups = [
  {
    source: repositoryFile('packages/server/src/infra/config/audit-log.ts'),
    opening: 'export const auditLogEnv = {',
  },
  {
    source: repositoryFile('packages/server/src/infra/config/code-host.ts'),
    opening: 'export const codeHostEnv = {',
  },
  {
    source: repositoryFile('packages/server/src/infra/config/prometheus.ts'),
    opening: 'export const prometheusEnv = {',
  },
  {
    source: repositoryFile('packages/server/src/infra/config/social-auth.ts'),
    opening: 'export const socialAuthEnv = {',
  },
  {
    source: repositoryFile('packages/server/src/infra/config/help-desk.ts'),
    opening: 'export const helpDeskEnv = {',
  },
];
const startSource = repositoryFile('scripts/start.mjs');

describe("the README's settings table", () => {
  it('reads both lists', () => {
    expect(settingsRead(configSource, startSource)).toContain('FLOTILLA_DATA_DIR');
    expect(settingsRead(configSource, startSource)).toContain('FLOTILLA_SIMULATED_DEVICES');
    expect(settingsDocumented(readme).length).toBeGreaterThan(50);
  });

  it('lists every setting the code reads, and only those', () => {
    expect(
      drift('the README', settingsDocumented(readme), settingsRead(configSource, startSource)),
    ).toEqual([]);
  });

  it('notices a setting added to the code or dropped from the table', () => {
    const addedToCode = configSource.replace(
      'const schema = z.object({\n',
      'const schema = z.object({\n  FLOTILLA_NEW_SETTING: z.string().optional(),\n',
    );
    expect(
      drift('the README', settingsDocumented(readme), settingsRead(addedToCode, startSource)),
    ).toEqual(['FLOTILLA_NEW_SETTING is missing from the README']);
    const droppedRow = readme.replace(/^\| `FLOTILLA_DEMO` \|.*\n/m, '');
    expect(
      drift('the README', settingsDocumented(droppedRow), settingsRead(configSource, startSource)),
    ).toEqual(['FLOTILLA_DEMO is missing from the README']);
  });
});

const maps = [
  ['### Server features (`packages/server/src/features`)', 'packages/server/src/features'],
  ['### Infrastructure (`packages/server/src/infra`)', 'packages/server/src/infra'],
  ['**Features** (`src/features/<feature>`):', 'packages/web/src/features'],
] as const;

describe("docs/ARCHITECTURE.md's map", () => {
  it.each(maps)('the table under %s names every folder of %s, and only those', (heading, dir) => {
    expect(tableNames(architecture, heading).length).toBeGreaterThan(5);
    expect(
      drift('docs/ARCHITECTURE.md', tableNames(architecture, heading), foldersOf(dir)),
    ).toEqual([]);
  });

  it('notices a folder missing from a table, or a row for a folder that is gone', () => {
    const [heading, dir] = maps[0];
    const missingRow = architecture.replace(/^\| `heartbeat` \|.*\n/m, '');
    expect(drift('docs/ARCHITECTURE.md', tableNames(missingRow, heading), foldersOf(dir))).toEqual([
      'heartbeat is missing from docs/ARCHITECTURE.md',
    ]);
    const extraRow = architecture.replace(
      /^\| `health` \|.*\n/m,
      (row) => `${row}| \`gone\` | a feature that was removed |\n`,
    );
    expect(drift('docs/ARCHITECTURE.md', tableNames(extraRow, heading), foldersOf(dir))).toEqual([
      'docs/ARCHITECTURE.md lists gone, which the code does not have',
    ]);
  });
});

// The slices of the console's floor, in the order docs/ARCHITECTURE.md lists them.
const floorSlices = (architecture: string): string[] => {
  const start = architecture.indexOf('**The floor**');
  const section = architecture.slice(
    start,
    architecture.indexOf('\n\n', architecture.indexOf('\n- ', start)),
  );
  return [...section.matchAll(/^- `([a-z-]+)\/`:/gm)].map((match) => match[1] ?? '');
};

describe("the console's floor in docs/ARCHITECTURE.md", () => {
  it('names the slices the lint rule knows, in their order', () => {
    expect(floorSlices(architecture)).toEqual(Object.keys(webFloor));
  });

  it('notices a slice missing from the list', () => {
    const missing = architecture.replace(/^- `fleet\/`:[\s\S]*?(?=^- `device\/`)/m, '');
    expect(floorSlices(missing)).toEqual(['ui', 'api', 'device']);
  });
});

describe('the documentation pages', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const serverPages = Object.entries(defaultDocPages)
    .map(([page, file]) => `${page} ${path.relative(root, file)}`)
    .sort();
  const consolePages = Object.entries(docPages)
    .map(([page, doc]) => `${page} ${doc.file}`)
    .sort();

  it('are the same pages in the server and the console, and every file exists', () => {
    expect(serverPages).toEqual(consolePages);
    for (const doc of Object.values(docPages)) {
      expect(repositoryFile(doc.file).length).toBeGreaterThan(0);
    }
  });

  // The documents under docs/ that the README links to and the console does not serve as a page
  // (docs/ROUTES.md is a reference for developers, read in the repository).
  const unservedLinks = (text: string): string[] => {
    const linked = [...text.matchAll(/\]\((docs\/[A-Z-]+\.md)(#[^)]*)?\)/g)].map(
      (match) => match[1] ?? '',
    );
    const pages = Object.values(docPages).map((doc) => doc.file);
    return [...new Set(linked)].filter(
      (file) => !pages.includes(file) && file !== 'docs/ROUTES.md',
    );
  };

  it('include every document the README links to under docs/', () => {
    expect(unservedLinks(readme)).toEqual([]);
    expect(unservedLinks(`${readme}\nSee [the new guide](docs/NEW-GUIDE.md#start).\n`)).toEqual([
      'docs/NEW-GUIDE.md',
    ]);
  });
});

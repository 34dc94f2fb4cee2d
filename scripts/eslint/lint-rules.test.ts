import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// Lints snippets with the project's own eslint.config.mjs, as if they lived at the given path,
// so what docs/ARCHITECTURE.md says lint enforces (dependency direction, no pine casts, polling
// in one place) is a checked claim.
const root = fileURLToPath(new URL('../..', import.meta.url));

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: 'eslint.config.mjs' });
});

const errorsOf = async (rule: string, filePath: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(`${code}\n`, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === rule)
    .map((message) => message.message);
};

const boundaryErrors = (filePath: string, code: string): Promise<string[]> =>
  errorsOf('flotilla/import-boundaries', filePath, code);

const importing = (specifier: string) =>
  `import { thing } from '${specifier}';\nexport const used = thing;`;

describe('import boundaries', () => {
  const forbidden: [from: string, specifier: string][] = [
    ['packages/shared/src/a/a.ts', '@flotilla/sdk/pine'],
    ['packages/shared/src/a/a.ts', '@flotilla/server/server'],
    ['packages/sdk/src/a.ts', '@flotilla/server/server'],
    ['packages/sdk/src/a.ts', '@flotilla/web/app/App'],
    ['packages/sdk/src/a.ts', '@flotilla/agent/cli'],
    ['packages/server/src/a.ts', '@flotilla/sdk/pine'],
    ['packages/server/src/a.ts', '@flotilla/agent/cli'],
    ['packages/server/contract/a.test.ts', '@flotilla/web/app/App'],
    ['packages/agent/src/a.ts', '@flotilla/server/server'],
    ['packages/agent/src/a.ts', '@flotilla/web/app/App'],
    ['packages/web/src/a.ts', '@flotilla/server/server'],
    ['packages/web/src/a.ts', '@flotilla/agent/cli'],
  ];
  it.each(forbidden)('refuses %s importing %s', async (from, specifier) => {
    expect(await boundaryErrors(from, importing(specifier))).toEqual([
      expect.stringContaining('may not be imported from'),
    ]);
  });

  const allowed: [from: string, specifier: string][] = [
    ['packages/sdk/src/a.ts', '@flotilla/shared/constants/limits'],
    ['packages/server/src/a.ts', '@flotilla/shared/constants/limits'],
    ['packages/agent/src/a.ts', '@flotilla/shared/constants/limits'],
    ['packages/agent/src/a.ts', '@flotilla/sdk/pine'],
    ['packages/web/src/a.ts', '@flotilla/sdk/pine'],
    ['packages/e2e/tests/a.ts', '@flotilla/server/server'],
    ['packages/e2e/tests/a.ts', '@flotilla/agent/cli'],
    ['packages/web/src/features/a/a.ts', '../../ui/polling.js'],
  ];
  it.each(allowed)('lets %s import %s', async (from, specifier) => {
    expect(await boundaryErrors(from, importing(specifier))).toEqual([]);
  });

  it('refuses relative imports that leave the package, in every import form', async () => {
    const from = 'packages/web/src/features/devices/a.ts';
    const leaving = '../../../../shared/src/permissions/permissions.js';
    for (const code of [
      importing(leaving),
      `export { thing } from '${leaving}';`,
      `export * from '${leaving}';`,
      `export const load = () => import('${leaving}');`,
      `export type T = import('${leaving}').Permission;`,
    ]) {
      expect(await boundaryErrors(from, code), code).toEqual([
        expect.stringContaining('Relative import leaves packages/web'),
      ]);
    }
    expect(
      await boundaryErrors('packages/server/src/a.ts', importing('../../e2e/support/a.js')),
    ).toHaveLength(1);
  });

  it('refuses ui importing features', async () => {
    expect(
      await boundaryErrors('packages/web/src/ui/a.ts', importing('../features/devices/x.js')),
    ).toEqual([expect.stringContaining('packages/web/src/ui/ may not import')]);
  });

  it('refuses server infra importing features or the app context, outside its tests', async () => {
    const from = 'packages/server/src/infra/odata/a.ts';
    expect(await boundaryErrors(from, importing('../../features/heartbeat/x.js'))).toEqual([
      expect.stringContaining('packages/server/src/infra/ may not import'),
    ]);
    expect(await boundaryErrors(from, importing('../../app-context.js'))).toEqual([
      expect.stringContaining('packages/server/src/infra/ may not import'),
    ]);
    expect(await boundaryErrors(from, importing('../db/database.js'))).toEqual([]);
    expect(
      await boundaryErrors('packages/server/src/features/a/a.ts', importing('../../infra/db/x.js')),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'packages/server/src/infra/odata/a.int.test.ts',
        importing('../../features/heartbeat/x.js'),
      ),
    ).toEqual([]);
  });
});

describe("the console's floor and feature table", () => {
  const web = 'packages/web/src';

  it('refuses a feature importing another feature unless the pair is listed', async () => {
    expect(
      await boundaryErrors(`${web}/features/releases/a.ts`, importing('../devices/x.js')),
    ).toEqual([expect.stringContaining('features/releases may not import features/devices')]);
    expect(
      await boundaryErrors(`${web}/features/device-logs/a.ts`, importing('../devices/x.js')),
    ).toEqual([expect.stringContaining('listed with a reason in webFeatureImports')]);
  });

  it('lets a listed pair through, one way only', async () => {
    expect(
      await boundaryErrors(`${web}/features/devices/a.ts`, importing('../device-logs/x.js')),
    ).toEqual([]);
    expect(
      await boundaryErrors(`${web}/features/fleets/b/a.ts`, importing('../../releases/x.js')),
    ).toEqual([]);
    expect(
      await boundaryErrors(`${web}/features/releases/a.ts`, importing('../fleets/x.js')),
    ).toHaveLength(1);
  });

  it('refuses features importing the app shell, in every import form', async () => {
    const from = `${web}/features/devices/a.ts`;
    for (const code of [
      importing('../../app/client.js'),
      `export const load = () => import('../../app/router.js');`,
      `export type T = import('../../app/router.js').Routes;`,
    ]) {
      expect(await boundaryErrors(from, code), code).toEqual([
        expect.stringContaining(`${web}/app/`),
      ]);
    }
  });

  it('lets features build on the floor', async () => {
    for (const specifier of [
      '../../ui/polling.js',
      '../../api/client.js',
      '../../fleet/fleet-detail.js',
      '../../device/device-rows.js',
    ]) {
      expect(
        await boundaryErrors(`${web}/features/variables/a.ts`, importing(specifier)),
        specifier,
      ).toEqual([]);
    }
  });

  it('refuses the floor importing features, the app or a slice above it', async () => {
    const refused: [from: string, specifier: string][] = [
      [`${web}/fleet/a.ts`, '../features/fleets/x.js'],
      [`${web}/device/a.ts`, '../features/devices/x.js'],
      [`${web}/api/a.ts`, '../app/router.js'],
      [`${web}/ui/a.ts`, '../fleet/fleet-detail.js'],
      [`${web}/ui/a.ts`, '../api/client.js'],
      [`${web}/fleet/a.ts`, '../device/device-rows.js'],
    ];
    for (const [from, specifier] of refused) {
      expect(await boundaryErrors(from, importing(specifier)), `${from} ${specifier}`).toEqual([
        expect.stringContaining('may not import'),
      ]);
    }
    expect(await boundaryErrors(`${web}/device/a.ts`, importing('../fleet/x.js'))).toEqual([]);
  });

  it('keeps test-support for tests and test helpers', async () => {
    const specifier = '../../test-support/fake-api.js';
    expect(await boundaryErrors(`${web}/features/devices/a.ts`, importing(specifier))).toEqual([
      expect.stringContaining('test-support/ is for tests'),
    ]);
    expect(
      await boundaryErrors(`${web}/features/devices/a.test.tsx`, importing(specifier)),
    ).toEqual([]);
    expect(
      await boundaryErrors(`${web}/features/devices/test-fixtures.ts`, importing(specifier)),
    ).toEqual([]);
  });
});

// The "may import" column of the Packages table in docs/ARCHITECTURE.md.
const documentedImports = (): Map<string, string[] | 'anything'> => {
  const doc = readFileSync(new URL('../../docs/ARCHITECTURE.md', import.meta.url), 'utf8');
  const table = new Map<string, string[] | 'anything'>();
  for (const match of doc.matchAll(/^\| `packages\/([a-z0-9]+)` \|.*\| ([^|]+) \|$/gm)) {
    const [, name = '', imports = ''] = match;
    table.set(
      name,
      imports.trim() === 'anything'
        ? 'anything'
        : [...imports.matchAll(/`([a-z0-9]+)`/g)].map((item) => item[1] ?? ''),
    );
  }
  return table;
};

describe('docs/ARCHITECTURE.md', () => {
  it('states the dependency direction the lint rule enforces', async () => {
    const table = documentedImports();
    const packages = [...table.keys()];
    expect(packages.sort()).toEqual(['agent', 'e2e', 'sdk', 'server', 'shared', 'web']);
    const disagreements: string[] = [];
    for (const [from, allowed] of table) {
      for (const to of packages.filter((name) => name !== from)) {
        const documented = allowed === 'anything' || allowed.includes(to);
        const errors = await boundaryErrors(
          `packages/${from}/src/a.ts`,
          importing(`@flotilla/${to}/x`),
        );
        if (documented !== (errors.length === 0)) {
          disagreements.push(
            `${from} → ${to}: documented ${documented}, lint ${errors.length === 0}`,
          );
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe('pine results in the console', () => {
  const file = 'packages/web/src/features/a/a.ts';
  const query = "client.pine.get({ resource: 'device', options: { $select: ['id'] } })";

  it('refuses casting them', async () => {
    for (const code of [
      `export const rows = (await ${query}) as { id: number }[];`,
      `export const rows = ${query} as Promise<{ id: number }[]>;`,
    ]) {
      expect(await errorsOf('no-restricted-syntax', file, code), code).toEqual([
        expect.stringContaining('do not cast them'),
      ]);
    }
  });

  it('accepts typed reads and `as const` options', async () => {
    expect(
      await errorsOf('no-restricted-syntax', file, `export const rows = await ${query};`),
    ).toEqual([]);
    expect(
      await errorsOf('no-restricted-syntax', file, "export const select = ['id'] as const;"),
    ).toEqual([]);
  });
});

describe('polling in the console', () => {
  const options = 'export const options = { refetchInterval: 1000 };';

  it('goes through ui/polling.ts only', async () => {
    expect(
      await errorsOf('no-restricted-syntax', 'packages/web/src/features/a/a.ts', options),
    ).toEqual([expect.stringContaining('ui/polling.ts')]);
    expect(
      await errorsOf('no-restricted-syntax', 'packages/web/src/ui/polling.ts', options),
    ).toEqual([]);
  });
});

describe("the console's data layer", () => {
  const feature = 'packages/web/src/features/a';
  const usingClient =
    "import { useClient } from '../../api/client.js';\nexport const useThing = () => useClient();";
  const typingClient =
    "import type { FlotillaClient } from '@flotilla/sdk/create-client';\nexport type C = FlotillaClient;";

  it('keeps the SDK client out of components and helpers', async () => {
    for (const file of [
      `${feature}/APage.tsx`,
      `${feature}/useThing.ts`,
      'packages/web/src/ui/a.tsx',
    ]) {
      expect(await errorsOf('no-restricted-imports', file, usingClient), file).toEqual([
        expect.stringContaining('api.ts hooks'),
      ]);
      expect(await errorsOf('no-restricted-imports', file, typingClient), file).toEqual([
        expect.stringContaining('api.ts hooks'),
      ]);
    }
  });

  it("lets a feature's data layer, the floor's api folder and tests hold it", async () => {
    for (const file of [
      `${feature}/api.ts`,
      `${feature}/api-members.ts`,
      'packages/web/src/api/session/useSession.ts',
      `${feature}/APage.test.tsx`,
    ]) {
      expect(await errorsOf('no-restricted-imports', file, usingClient), file).toEqual([]);
    }
  });

  it('takes query keys from the feature factory, never inline', async () => {
    for (const code of [
      "export const options = { queryKey: ['devices', 1] };",
      "export const drop = (c: { invalidateQueries: (k: unknown) => void }) => c.invalidateQueries({ queryKey: ['devices'] });",
      "export const put = (c: { setQueryData: (k: unknown, v: unknown) => void }) => c.setQueryData(['devices'], 1);",
    ]) {
      expect(await errorsOf('no-restricted-syntax', `${feature}/api.ts`, code), code).toEqual([
        expect.stringContaining('query-keys.ts'),
      ]);
    }
    expect(
      await errorsOf(
        'no-restricted-syntax',
        `${feature}/query-keys.ts`,
        "export const keys = { all: ['a'] as const, one: (id: number) => ['a', id] as const };",
      ),
    ).toEqual([]);
    expect(
      await errorsOf(
        'no-restricted-syntax',
        `${feature}/api.ts`,
        "import { keys } from './query-keys.js';\nexport const options = { queryKey: keys.all };",
      ),
    ).toEqual([]);
  });
});

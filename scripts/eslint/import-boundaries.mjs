import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The dependency direction of docs/ARCHITECTURE.md: shared ← sdk ← web and agent; shared ←
// server; e2e may import anything. One table, read by the lint rule below.
export const allowedImports = {
  shared: [],
  sdk: ['shared'],
  server: ['shared'],
  agent: ['shared', 'sdk'],
  web: ['shared', 'sdk'],
  e2e: ['shared', 'sdk', 'server', 'agent', 'web'],
};

// Inside a package, folders that must not import other folders of the same package.
// `testsExempt`: a test of the layer may exercise it through the rest of the server.
export const forbiddenLayers = [
  {
    from: 'packages/web/src/ui/',
    to: 'packages/web/src/features/',
    why: 'ui holds generic building blocks; features use ui, never the other way round',
  },
  {
    from: 'packages/server/src/infra/',
    to: 'packages/server/src/features/',
    why: 'infrastructure knows no feature; features use infra, never the other way round',
    testsExempt: true,
  },
  {
    from: 'packages/server/src/infra/',
    to: 'packages/server/src/app-context',
    why: 'infrastructure takes the narrow dependencies it uses, not the context features receive',
    testsExempt: true,
  },
];

const isTest = (file) => /\.test\.tsx?$/.test(file);

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const toPosix = (file) => file.split(path.sep).join('/');

// "packages/web/src/x.ts" → "web"; null outside packages/.
const packageOf = (relative) => /^packages\/([^/]+)\//.exec(relative)?.[1] ?? null;

const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforces the package dependency direction of docs/ARCHITECTURE.md.' },
    schema: [],
    messages: {
      direction:
        '@flotilla/{{target}} may not be imported from packages/{{source}} (allowed: {{allowed}}; docs/ARCHITECTURE.md).',
      relativeLeaves:
        'Relative import leaves packages/{{source}}: import the other package by its name (@flotilla/...).',
      layer: '{{from}} may not import {{to}}: {{why}}.',
    },
  },
  create(context) {
    const file = toPosix(path.relative(repoRoot, context.filename));
    const source = packageOf(file);
    if (source === null || !(source in allowedImports)) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string') return;
      if (specifier.startsWith('.')) {
        const target = toPosix(
          path.relative(repoRoot, path.resolve(path.dirname(context.filename), specifier)),
        );
        if (!target.startsWith(`packages/${source}/`)) {
          context.report({ node, messageId: 'relativeLeaves', data: { source } });
          return;
        }
        for (const layer of forbiddenLayers) {
          if (layer.testsExempt && isTest(file)) continue;
          if (file.startsWith(layer.from) && target.startsWith(layer.to)) {
            context.report({ node, messageId: 'layer', data: layer });
          }
        }
        return;
      }
      const target = /^@flotilla\/([^/]+)/.exec(specifier)?.[1];
      if (target === undefined || target === source) return;
      const allowed = allowedImports[source];
      if (!allowed.includes(target)) {
        context.report({
          node,
          messageId: 'direction',
          data: { source, target, allowed: allowed.length > 0 ? allowed.join(', ') : 'none' },
        });
      }
    };
    const fromSource = (node) => {
      if (node.source) check(node.source, node.source.value);
    };
    return {
      ImportDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ImportExpression: (node) => {
        if (node.source.type === 'Literal') check(node.source, node.source.value);
      },
      // `import('x').Type` in type positions.
      TSImportType: (node) => {
        // typescript-eslint 8 names the string `source`; older versions wrap it in `argument`.
        const literal =
          node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : null);
        if (literal?.type === 'Literal') check(literal, literal.value);
      },
    };
  },
};

export const flotillaPlugin = { rules: { 'import-boundaries': importBoundaries } };

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

// The console's floor (packages/web/src): the slices every feature may build on, each with the
// floor slices it may import itself. Nothing on the floor imports a feature or the app shell.
// test-support/ is open to tests and test helpers only.
export const webFloor = {
  ui: ['ui'],
  api: ['ui', 'api'],
  fleet: ['ui', 'api', 'fleet'],
  device: ['ui', 'api', 'fleet', 'device'],
};

// The only imports from one feature folder into another, each with why. Anything both sides
// need belongs on the floor instead; a pair listed here never points back (no cycles).
export const webFeatureImports = [
  { from: 'auth', to: 'signup-profile', why: 'signing up continues to the profile step' },
  { from: 'auth', to: 'social-auth', why: 'the login page shows the social sign-in buttons' },
  { from: 'deploy', to: 'releases', why: 'a deploy follows its build as the release list does' },
  { from: 'devices', to: 'device-logs', why: 'the device page embeds the logs panel' },
  { from: 'devices', to: 'device-metrics', why: 'the device page embeds the metric history' },
  { from: 'devices', to: 'terminal', why: 'the device page embeds the terminal' },
  { from: 'devices', to: 'location', why: 'the fleet device list switches to the map' },
  {
    from: 'devices',
    to: 'releases',
    why: 'pinning a device picks a release in the release picker',
  },
  {
    from: 'email-verification',
    to: 'platform-admin',
    why: 'an admin logged in as a user still sees the login-as banner while verification waits',
  },
  {
    from: 'fleet-access',
    to: 'organizations',
    why: "fleet members and teams come from the organization's invitations and teams",
  },
  { from: 'fleets', to: 'fleet-access', why: 'the fleet layout opens the access role dialog' },
  { from: 'fleets', to: 'releases', why: "the fleet's default release is picked in the picker" },
  { from: 'password-reset', to: 'auth', why: 'the reset request asks the sign-in captcha' },
  { from: 'preferences', to: 'api-keys', why: 'the access tokens tab manages the API keys' },
  { from: 'preferences', to: 'oauth', why: 'the access tokens tab lists authorized applications' },
  {
    from: 'preferences',
    to: 'social-auth',
    why: "the profile tab lists, links and unlinks the account's social accounts",
  },
  {
    from: 'preferences',
    to: 'email-verification',
    why: 'the email section resends the verification mail',
  },
  {
    from: 'preferences',
    to: 'reauthentication',
    why: 'token and two-factor changes ask for a fresh login',
  },
  { from: 'shell', to: 'changelog', why: 'the shell header shows the changelog button' },
  { from: 'shell', to: 'status', why: "the shell header shows the status page's dot" },
  { from: 'shell', to: 'email-verification', why: 'the shell holds unverified users back' },
  { from: 'shell', to: 'platform-admin', why: 'the shell shows the login-as banner and its end' },
  { from: 'shell', to: 'support', why: "the header's help icon opens the support drawer" },
  { from: 'shell', to: 'signup-profile', why: 'the shell finishes the signup profile step first' },
  { from: 'signup-profile', to: 'preferences', why: 'the profile step reuses the profile form' },
];

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const toPosix = (file) => file.split(path.sep).join('/');

// "packages/web/src/x.ts" → "web"; null outside packages/.
const packageOf = (relative) => /^packages\/([^/]+)\//.exec(relative)?.[1] ?? null;

const webSrc = 'packages/web/src/';

// "packages/web/src/features/devices/a.ts" → "features/devices", "packages/web/src/ui/a.ts" →
// "ui"; null outside the console's sources or for its top-level files (main.tsx).
const webSliceOf = (relative) => {
  if (!relative.startsWith(webSrc)) return null;
  const parts = relative.slice(webSrc.length).split('/');
  if (parts.length < 2) return null;
  if (parts[0] === 'features') return parts.length > 2 ? `features/${parts[1]}` : null;
  return parts[0];
};

const isTestCode = (relative) =>
  /\.test\.[cm]?[jt]sx?$/.test(relative) || /\/test-[^/]+$/.test(relative);

// The console's floor and feature table for one relative import inside packages/web/src;
// the report's messageId and data, or null when it is allowed.
const webViolation = (file, target) => {
  const from = webSliceOf(file);
  const to = webSliceOf(target);
  if (from === null || to === null || from === to) return null;
  if (to === 'test-support') {
    return from === 'test-support' || isTestCode(file) ? null : { messageId: 'testSupport' };
  }
  const layer = (why) => ({
    messageId: 'layer',
    data: { from: `${webSrc}${from}/`, to: `${webSrc}${to}/`, why },
  });
  if (from.startsWith('features/')) {
    if (to === 'app') {
      return layer('app composes the features; features reach the client through api/');
    }
    if (!to.startsWith('features/')) return null;
    const pair = { from: from.slice('features/'.length), to: to.slice('features/'.length) };
    const listed = webFeatureImports.some((item) => item.from === pair.from && item.to === pair.to);
    return listed ? null : { messageId: 'feature', data: pair };
  }
  if (from in webFloor && !webFloor[from].includes(to)) {
    return layer(
      to.startsWith('features/') || to === 'app'
        ? 'the floor holds what features share; features use it, never the other way round'
        : `${from}/ builds on ${webFloor[from].join(', ')} only`,
    );
  }
  return null;
};

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
      feature:
        'features/{{from}} may not import features/{{to}}: a feature imports another only when the pair is listed with a reason in webFeatureImports (scripts/eslint/import-boundaries.mjs); move what both need to ui/, api/, fleet/ or device/.',
      testSupport:
        'test-support/ is for tests: only *.test.* files and test-* helpers may import it.',
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
            return;
          }
        }
        const violation = webViolation(file, target);
        if (violation !== null) context.report({ node, ...violation });
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

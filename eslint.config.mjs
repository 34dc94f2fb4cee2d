import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { flotillaPlugin } from './scripts/eslint/import-boundaries.mjs';

const baseSyntaxRules = [
  { selector: 'TSEnumDeclaration', message: 'Use a string union instead of an enum.' },
  { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
];

// The console's SDK types every answer from the query (packages/sdk/src/resources/v7-model.ts).
const noPineCasts = {
  selector:
    'TSAsExpression:not([typeAnnotation.typeName.name="const"]) CallExpression[callee.object.property.name="pine"]',
  message: 'The SDK types pine results from the query; do not cast them.',
};

// Polling follows one rule (poll only while the page is visible), kept in one place.
const pollingOnlyInUi = {
  selector: 'Property[key.name=/^refetchInterval/]',
  message: 'Poll through ui/polling.ts.',
};

// The console's data layer: components use their feature's hooks; only a feature's data-layer
// files (`api.ts`, `api-<topic>.ts`) and the floor's `api/` folder hold the SDK client.
const clientOnlyInDataLayer = {
  patterns: [
    {
      group: ['**/api/client.js'],
      importNames: ['useClient', 'ClientProvider'],
      message:
        "Reach data through the feature's api.ts hooks; only the data layer holds the client.",
    },
    {
      group: ['@flotilla/sdk/create-client'],
      importNames: ['FlotillaClient'],
      message:
        "Reach data through the feature's api.ts hooks; only the data layer holds the client.",
    },
  ],
};

// Query keys come from one factory per feature (its query-keys.ts), built on api/query-roots.ts.
const noInlineQueryKeys = [
  {
    selector: 'Property[key.name="queryKey"] > ArrayExpression',
    message: "Take query keys from the feature's query-keys.ts factory.",
  },
  {
    selector:
      'CallExpression[callee.property.name=/^(get|set)Quer(y|ies)Data$|^(remove|cancel|refetch|invalidate)Queries$/] > ArrayExpression',
    message: "Take query keys from the feature's query-keys.ts factory.",
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**', 'bench-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...baseSyntaxRules],
    },
  },
  {
    // Dependency direction between packages, no relative import out of a package, and the
    // layers inside one (scripts/eslint/import-boundaries.mjs; docs/ARCHITECTURE.md).
    files: ['packages/**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { flotilla: flotillaPlugin },
    rules: { 'flotilla/import-boundaries': 'error' },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-syntax': ['error', ...baseSyntaxRules, noPineCasts, pollingOnlyInUi],
    },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    ignores: [
      'packages/web/src/**/*.test.{ts,tsx}',
      'packages/web/src/test-support/**',
      'packages/web/src/api/**',
      'packages/web/src/app/App.tsx',
      'packages/web/src/**/api.ts',
      'packages/web/src/**/api-*.ts',
    ],
    rules: { 'no-restricted-imports': ['error', clientOnlyInDataLayer] },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    ignores: [
      'packages/web/src/**/*.test.{ts,tsx}',
      'packages/web/src/test-support/**',
      'packages/web/src/**/query-keys.ts',
      'packages/web/src/api/query-roots.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...baseSyntaxRules,
        noPineCasts,
        pollingOnlyInUi,
        ...noInlineQueryKeys,
      ],
    },
  },
  {
    files: ['packages/web/src/ui/polling.ts'],
    rules: { 'no-restricted-syntax': ['error', ...baseSyntaxRules, noPineCasts] },
  },
  {
    // Tools' configuration files must default-export their config.
    files: [
      '**/*.config.ts',
      '**/*.config.mjs',
      'eslint.config.mjs',
      'packages/web/vite.config.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
);

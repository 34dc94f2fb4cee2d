import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Dependency direction: shared ← sdk ← web (and agent); shared ← server.
const forbid = (...packages) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: packages.map((name) => ({
        group: [`@flotilla/${name}`, `@flotilla/${name}/*`],
        message: 'Breaks the dependency direction (docs/ARCHITECTURE.md).',
      })),
    },
  ],
});

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
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a string union instead of an enum.' },
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
      ],
    },
  },
  { files: ['packages/shared/**/*.ts'], rules: forbid('sdk', 'server', 'web', 'agent') },
  { files: ['packages/sdk/**/*.ts'], rules: forbid('server', 'web', 'agent') },
  { files: ['packages/server/**/*.ts'], rules: forbid('sdk', 'web', 'agent') },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, ...forbid('server', 'agent') },
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

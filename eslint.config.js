import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import ownTables from './tools/eslint/own-tables.js';

/** Forbid imports matching these folders, with the rule of docs/architecture.md (Boundaries) as the message. */
const forbid = (message, ...folders) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: folders.map((f) => `**/${f}/**`), message }] }],
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { local: { rules: { 'own-tables': ownTables } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'local/own-tables': 'error',
    },
  },
  // Module boundaries (docs/architecture.md, Boundaries).
  {
    files: ['src/web/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, ...forbid('The web app talks to the server only over HTTP: share types through src/contract.', 'server', 'runtime') },
  },
  { files: ['src/server/**'], rules: forbid('The server never imports the web app.', 'web') },
  { files: ['src/runtime/**'], rules: forbid('The game runtime stands alone: no web app, no API server.', 'web', 'server') },
  { files: ['src/contract/**'], rules: forbid('The contract is shared by API and web: it imports neither.', 'web', 'server', 'runtime') },
  { files: ['public/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  { files: ['tools/**/*.js', 'eslint.config.js'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);

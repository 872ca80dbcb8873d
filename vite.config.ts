import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = 'http://localhost:8080';

// Libraries every page runs go in one chunk: it compresses better than the many small shared chunks
// the bundler would make otherwise, and it changes only when a library does. MUI's own helpers stay
// out of it: a chunk named here takes every module that matches, so the dashboard's data grid would
// pull its share of them into what the home page downloads.
const framework = /node_modules\/(react|react-dom|scheduler|react-router|i18next|react-i18next|@emotion\/[^/]+|stylis)\//;

// Everything else the first page of any visit runs (the `$initial` modules: the entry's static
// imports, the shell and MUI parts they use) also goes in one chunk, instead of some thirty small
// ones each compressed apart; only what a page loads lazily is split by route. The entry itself
// stays out, so index.html keeps one script that imports the rest.
const entry = /src\/web\/(index\.html|app\/main\.tsx)$/;

/** The web app: built into dist/web and served by the API server; `npx vite` proxies the API in development. */
export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'framework', test: framework, priority: 2 },
            { name: 'shell', tags: ['$initial'], test: (id) => !entry.test(id), priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(['/v1', '/oidc', '/_content', '/app-config.json', '/builds', '/docs'].map((p) => [p, api])),
  },
});

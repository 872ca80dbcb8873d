import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = 'http://localhost:8080';

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
  },
  server: {
    proxy: Object.fromEntries(['/v1', '/oidc', '/_content', '/app-config.json', '/builds', '/docs'].map((p) => [p, api])),
  },
});

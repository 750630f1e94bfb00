import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The explorer's bundle: built into dist/web (served by the service at /), never committed.
// `npm run build` (and so `npm start`, `npm test`) builds it when web/ changed (tools/build-web.js).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  base: '/',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    sourcemap: false,
  },
  server: { proxy: { '/graphql': 'http://127.0.0.1:5000' } },
});

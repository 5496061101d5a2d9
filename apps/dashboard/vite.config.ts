import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** The back office: built into dist/ at install time or when its sources change (scripts/build-dashboard.mjs). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  plugins: [react()],
  resolve: {
    // The typed client from its sources: one build, no step to build the package first.
    alias: { '@opentill/client': fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url)) },
  },
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false, chunkSizeWarningLimit: 800 },
  logLevel: 'warn',
})

// Builds the back office (apps/dashboard) into apps/dashboard/dist when its sources, or the typed client it is built
// with, changed since the last build: `npm install` (prepare), `npm start` (prestart) and `npm test` call it, and a
// start with nothing changed costs one hash of the sources. `--force` builds anyway.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { sourcesHash } from './sources-hash.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const app = join(root, 'apps/dashboard')
const stamp = join(app, 'dist/.sources-hash')
const SOURCES = [app, join(root, 'packages/client/src'), join(root, 'package-lock.json')]

/** Builds the back office unless its build is of the sources as they are now. */
export async function ensureDashboardBuilt({ force = false } = {}) {
  const hash = sourcesHash(root, SOURCES)
  if (!force && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return
  const started = Date.now()
  const { build } = await import('vite')
  await build({ configFile: join(app, 'vite.config.ts') })
  writeFileSync(stamp, hash)
  console.log(`back office built into apps/dashboard/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  await ensureDashboardBuilt({ force: process.argv.includes('--force') })

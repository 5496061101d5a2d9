// The bundle `npm start` and the `opentill` command run (build/opentill.mjs): the server's TypeScript compiled by
// esbuild into one file, again whenever its sources changed since the last build, so that a start loads one file
// rather than compiling and resolving hundreds of modules through tsx (docs/operations.md "Starting"). Plain
// JavaScript, so that bin/opentill.js can check it before anything else is loaded. `--force` builds anyway.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { sourcesHash } from './sources-hash.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = join(root, 'build')
const bundle = join(dir, 'opentill.mjs')
const stamp = join(dir, '.sources-hash')
// The build's own recipe too: a bundle built by an older recipe is built again.
const SOURCES = [
  join(root, 'src'),
  join(root, 'package-lock.json'),
  join(root, 'tsconfig.json'),
  fileURLToPath(import.meta.url),
]

/** How the server is compiled: one ESM file for Node 20, its dependencies loaded from node_modules as from the sources. */
export const serverBuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
}

/** The bundle's path, built first unless it is of the sources as they are now. */
export async function serverBuild({ force = false } = {}) {
  const hash = sourcesHash(root, SOURCES, (file) => file.endsWith('.ts'))
  if (!force && existsSync(bundle) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return bundle
  const { build } = await import('esbuild')
  mkdirSync(dir, { recursive: true })
  // Built aside and moved in, map first: a process starting meanwhile reads the old bundle or the new, never half.
  // Aside at build/'s own depth, so that the map's relative paths to the sources hold once moved into build/.
  const aside = mkdtempSync(join(root, '.building-'))
  try {
    await build({
      entryPoints: [join(root, 'src/cli.ts')],
      outfile: join(aside, 'opentill.mjs'),
      ...serverBuildOptions,
    })
    renameSync(join(aside, 'opentill.mjs.map'), `${bundle}.map`)
    renameSync(join(aside, 'opentill.mjs'), bundle)
    writeFileSync(stamp, hash)
  } finally {
    rmSync(aside, { recursive: true, force: true })
  }
  return bundle
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  await serverBuild({ force: process.argv.includes('--force') })

// The test entries of a run (scripts/test-plan.ts) compiled into plain JavaScript before node:test starts them
// (docs/testing.md "What makes it fast").
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { fromRoot } from '../src/platform/paths.ts'
import { serverBuildOptions } from './server-build.mjs'

/**
 * Each entry (a test file, or a group's module that imports several) as an ES module, compiled as `npm start`
 * compiles the server (an esbuild bundle, dependencies from node_modules), the code the entries share split into
 * chunks. A test process then loads a few files of JavaScript instead of resolving and compiling hundreds of modules
 * through tsx, whose loader thread also answers for every module of node_modules: about 1.5 s of CPU for each of
 * a run's processes. The bundles are written under build/ (in the project, so that their imports resolve from its
 * node_modules and `fromRoot` finds its root from them) and mapped back to the sources for stack traces.
 */
export async function bundleTestEntries(entries: readonly string[]): Promise<{ entries: string[]; cleanUp(): void }> {
  mkdirSync(fromRoot('build'), { recursive: true })
  const dir = mkdtempSync(fromRoot('build', 'tests-'))
  const names = entries.map((entry, i) => `${String(i + 1).padStart(2, '0')}-${basename(entry).replace(/\..*$/, '')}`)
  const cleanUp = () => rmSync(dir, { recursive: true, force: true })
  try {
    await build({
      ...serverBuildOptions,
      entryPoints: Object.fromEntries(entries.map((entry, i) => [names[i], entry])),
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      splitting: true,
      chunkNames: 'shared/[name]-[hash]',
      plugins: [buildScriptsInPlace],
    })
  } catch (error) {
    cleanUp()
    throw error
  }
  return { entries: names.map((name) => join(dir, `${name}.mjs`)), cleanUp }
}

/**
 * The build scripts a test calls (scripts/*.mjs, plain JavaScript) are imported from where they are, not copied into
 * a bundle: they find the project, and the recipe they hash into their stamp, from their own URL.
 */
const buildScriptsInPlace: Plugin = {
  name: 'build-scripts-in-place',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/(.+\/)?scripts\/[^/]+\.mjs$/ }, (args) => {
      const path = resolve(args.resolveDir, args.path)
      return dirname(path) === fromRoot('scripts') ? { path: pathToFileURL(path).href, external: true } : undefined
    })
  },
}

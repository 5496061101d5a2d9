import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The nearest directory from `dir` up that holds a package.json. */
function packageRootAbove(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at
    if (dirname(at) === at) throw new Error(`no package.json above ${dir}`)
  }
}

/**
 * The project's root, found from this file up: the same whether the code runs from its TypeScript sources (tsx) or
 * from the bundle `npm start` builds of them (scripts/server-build.mjs), so that the files beside the code (the
 * migrations, the back office's build, receipt strings, the OpenAPI examples) are found from either.
 */
const PROJECT_ROOT = packageRootAbove(dirname(fileURLToPath(import.meta.url)))

/** A path in the project, from its root: `fromRoot('db', 'migrations')`. */
export const fromRoot = (...parts: string[]): string => join(PROJECT_ROOT, ...parts)

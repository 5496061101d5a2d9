// What the build scripts (build-dashboard.mjs, server-build.mjs) compare with their last build's stamp.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** The files under a path (itself, if it is a file) that `keep` takes, leaving out builds and installed packages. */
function files(path, keep) {
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path).flatMap((name) => {
    if (name === 'dist' || name === 'node_modules') return []
    const child = join(path, name)
    return statSync(child).isDirectory() ? files(child, keep) : keep(child) ? [child] : []
  })
}

/**
 * A hash of the names (relative to `root`) and contents of the files under `paths`; `keep` picks the files of the
 * directories (a path that is a file always counts).
 */
export function sourcesHash(root, paths, keep = () => true) {
  const hash = createHash('sha256')
  for (const file of paths.flatMap((path) => files(path, keep)).sort())
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

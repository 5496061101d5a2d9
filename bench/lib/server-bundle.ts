import { join } from 'node:path'
import { build } from 'esbuild'
import { serverBuildOptions } from '../../scripts/server-build.mjs'

/**
 * bench/server.ts of `tree` compiled as `npm start` compiles the server (scripts/server-build.mjs: one esbuild
 * bundle, dependencies from node_modules), so that the benchmark measures the code a deployment runs. Through tsx
 * every closure made per request also had its name defined (esbuild's keepNames), 4% of a cached read's CPU.
 */
export async function benchServerBundle(tree: string): Promise<string> {
  const outfile = join(tree, 'build', 'bench-server.mjs')
  await build({
    entryPoints: [join(tree, 'bench', 'server.ts')],
    outfile,
    ...serverBuildOptions,
  })
  return outfile
}

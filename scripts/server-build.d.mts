import type { BuildOptions } from 'esbuild'

export const serverBuildOptions: BuildOptions
export function serverBuild(options?: { force?: boolean }): Promise<string>

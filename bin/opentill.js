#!/usr/bin/env node
// Runs the CLI in this very process, so that the process a service manager starts is the one that serves: its
// SIGTERM reaches the server directly, and a kill -9 kills the server, not a wrapper that would leave it running.
// It runs the bundle of the sources (scripts/server-build.mjs), built first when they changed since the last build;
// if it cannot be built, the sources themselves through tsx's loader.
import { pathToFileURL } from 'node:url'
import { serverBuild } from '../scripts/server-build.mjs'

let bundle
try {
  bundle = await serverBuild()
} catch (error) {
  process.stderr.write(`the server could not be bundled (${error.message}): running its sources through tsx\n`)
}
if (bundle) {
  // Stack traces name the TypeScript sources, through the bundle's source map.
  process.setSourceMapsEnabled(true)
  await import(pathToFileURL(bundle).href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('../src/cli.ts')
}

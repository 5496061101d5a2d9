import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyPluginAsync } from 'fastify'

const require = createRequire(import.meta.url)
const staticDir = join(dirname(require.resolve('mercurius')), 'static')
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`))

/**
 * The files mercurius' page loads from unpkg, served from this package's own dependencies instead (the versions
 * its page names), so GraphiQL works offline and loads nothing from a third party.
 */
const VENDOR: Record<string, { unpkg: string; file: string; type: string }> = {
  'graphiql.min.css': {
    unpkg: 'https://unpkg.com/graphiql@3.8.3/graphiql.min.css',
    file: join(packageDir('graphiql'), 'graphiql.min.css'),
    type: 'text/css; charset=utf-8',
  },
  'graphiql.min.js': {
    unpkg: 'https://unpkg.com/graphiql@3.8.3/graphiql.min.js',
    file: join(packageDir('graphiql'), 'graphiql.min.js'),
    type: 'application/javascript',
  },
  'react.production.min.js': {
    unpkg: 'https://unpkg.com/react@18.3.1/umd/react.production.min.js',
    file: join(packageDir('react'), 'umd/react.production.min.js'),
    type: 'application/javascript',
  },
  'react-dom.production.min.js': {
    unpkg: 'https://unpkg.com/react-dom@18.3.1/umd/react-dom.production.min.js',
    file: join(packageDir('react-dom'), 'umd/react-dom.production.min.js'),
    type: 'application/javascript',
  },
}

/** Mercurius' page registers a service worker only to cache unpkg's files; with the files served here it is not needed. */
const SERVICE_WORKER = `if ('serviceWorker' in navigator) {
  navigator
    .serviceWorker
    .register('./graphiql/sw.js')
    .then(importDependencies).then(render)
} else {
  importDependencies()
    .then(render)
}`

/**
 * Mercurius' page adds React, ReactDOM and GraphiQL as script tags at once, and an added script runs when it arrives:
 * ReactDOM could run before React and the page stay blank (seen under load). Marked not async, they run in order.
 */
const SCRIPT_TAG = "script.crossOrigin = 'anonymous'"

/**
 * Mercurius' page script, loading its vendor files from /graphiql/vendor/ rather than unpkg, and at once rather
 * than after registering a service worker (whose lifecycle held the first render back); a script that no longer
 * reads as expected is refused at start, not served half rewritten.
 */
function pageScript(): string {
  let script = readFileSync(join(staticDir, 'main.js'), 'utf8')
  for (const [name, vendor] of Object.entries(VENDOR))
    script = script.replaceAll(vendor.unpkg, `/graphiql/vendor/${name}`)
  if (!script.includes(SERVICE_WORKER) || !script.includes(SCRIPT_TAG))
    throw new Error("mercurius' GraphiQL page no longer starts as expected")
  script = script.replace(SERVICE_WORKER, 'importDependencies().then(render)')
  script = script.replace(SCRIPT_TAG, `${SCRIPT_TAG}\n      script.async = false`)
  if (script.includes('https://unpkg.com/')) throw new Error("mercurius' GraphiQL page loads a file not served here")
  return script
}

/**
 * The GraphiQL playground (outside production only), served from mercurius' own page. Mercurius' `graphiql`
 * option would register these routes without the `scope` every route must declare, so they are declared here.
 */
export const graphiqlRoutes: FastifyPluginAsync<{ endpoint: string }> = async (app, { endpoint }) => {
  const files: Record<string, { type: string; body: string | Buffer }> = {
    '/graphiql': { type: 'text/html; charset=utf-8', body: readFileSync(join(staticDir, 'graphiql.html'), 'utf8') },
    '/graphiql/main.js': { type: 'application/javascript', body: pageScript() },
    '/graphiql/config.js': {
      type: 'application/javascript',
      body: `window.GRAPHQL_ENDPOINT = ${JSON.stringify(endpoint)};\nwindow.GRAPHIQL_PLUGIN_LIST = []`,
    },
  }
  for (const [name, vendor] of Object.entries(VENDOR))
    files[`/graphiql/vendor/${name}`] = { type: vendor.type, body: readFileSync(vendor.file) }
  for (const [url, file] of Object.entries(files)) {
    app.get(url, { config: { scope: false }, schema: { hide: true } }, async (_request, reply) =>
      reply.type(file.type).send(file.body),
    )
  }
}

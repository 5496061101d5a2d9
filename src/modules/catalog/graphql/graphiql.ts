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
const VENDOR: Record<string, { unpkg: string; file: string; type: string; alias?: string }> = {
  'graphiql.min.css': {
    unpkg: 'https://unpkg.com/graphiql@3.8.3/graphiql.min.css',
    // The service worker precaches the stylesheet under this name.
    alias: 'https://unpkg.com/graphiql@3.8.3/graphiql.css',
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

/**
 * One of mercurius' page scripts (the page's, its service worker's), loading and caching its vendor files from
 * /graphiql/vendor/ rather than unpkg; a script that names an unpkg file this does not serve is refused at start.
 */
function localScript(file: string): string {
  let script = readFileSync(join(staticDir, file), 'utf8')
  for (const [name, vendor] of Object.entries(VENDOR))
    for (const url of [vendor.unpkg, vendor.alias].filter((u) => u !== undefined))
      script = script.replaceAll(url, `/graphiql/vendor/${name}`)
  if (script.includes('https://unpkg.com/')) throw new Error(`mercurius' ${file} loads a file GraphiQL does not serve`)
  return script
}

/**
 * The GraphiQL playground (outside production only), served from mercurius' own page. Mercurius' `graphiql`
 * option would register these routes without the `scope` every route must declare, so they are declared here.
 */
export const graphiqlRoutes: FastifyPluginAsync<{ endpoint: string }> = async (app, { endpoint }) => {
  const files: Record<string, { type: string; body: string | Buffer }> = {
    '/graphiql': { type: 'text/html; charset=utf-8', body: readFileSync(join(staticDir, 'graphiql.html'), 'utf8') },
    '/graphiql/main.js': { type: 'application/javascript', body: localScript('main.js') },
    '/graphiql/sw.js': { type: 'application/javascript', body: localScript('sw.js') },
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

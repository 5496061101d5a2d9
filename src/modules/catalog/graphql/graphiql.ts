import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyPluginAsync } from 'fastify'

const staticDir = join(dirname(createRequire(import.meta.url).resolve('mercurius')), 'static')

/**
 * The GraphiQL playground (outside production only), served from mercurius' own page. Mercurius' `graphiql`
 * option would register these routes without the `scope` every route must declare, so they are declared here.
 */
export const graphiqlRoutes: FastifyPluginAsync<{ endpoint: string }> = async (app, { endpoint }) => {
  const files: Record<string, { type: string; body: string }> = {
    '/graphiql': { type: 'text/html; charset=utf-8', body: readFileSync(join(staticDir, 'graphiql.html'), 'utf8') },
    '/graphiql/main.js': { type: 'application/javascript', body: readFileSync(join(staticDir, 'main.js'), 'utf8') },
    '/graphiql/sw.js': { type: 'application/javascript', body: readFileSync(join(staticDir, 'sw.js'), 'utf8') },
    '/graphiql/config.js': {
      type: 'application/javascript',
      body: `window.GRAPHQL_ENDPOINT = ${JSON.stringify(endpoint)};\nwindow.GRAPHIQL_PLUGIN_LIST = []`,
    },
  }
  for (const [url, file] of Object.entries(files)) {
    app.get(url, { config: { scope: false }, schema: { hide: true } }, async (_request, reply) =>
      reply.type(file.type).send(file.body),
    )
  }
}

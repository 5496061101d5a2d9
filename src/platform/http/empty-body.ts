import type { FastifyInstance } from 'fastify'

/**
 * A POST sent without a body (`curl -X POST …/capture`, a client that sends none for an action) reads as `{}`, so
 * actions whose fields are all optional (capture, void, a full refund, lay-by complete and cancel, gift card
 * disable, replay-all) accept it, and any other route's schema names the field that is missing instead of
 * answering "body must be object" (docs/decisions.md "Empty bodies").
 */
export function readMissingBodyAsEmpty(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body !== undefined) request.body = {}
  })
}

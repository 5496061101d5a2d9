declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a bearer token needs for this route (docs/decisions.md "Scopes"); `false` marks a public route. */
    scope?: string | false
  }
  interface FastifyRequest {
    ctx: import('./context.ts').RequestContext
    /** The transaction an idempotent POST runs in, so its effects and its stored response commit together. */
    ambientTx?: import('./idempotency.ts').AmbientTransaction
  }
}

export {}

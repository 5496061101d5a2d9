import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

// ajv-formats is CommonJS; under ESM its function may sit on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => void

function makeAjv(coerce: boolean, externalSchemas: Record<string, unknown>): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    // Unknown body fields are refused, never dropped (DECISIONS.md "REST conventions").
    removeAdditional: false,
    useDefaults: true,
    strict: false,
  })
  addFormats(ajv)
  for (const schema of Object.values(externalSchemas)) ajv.addSchema(schema as object)
  return ajv
}

/**
 * Fastify's validator factory (schemaController.compilersFactory.buildValidator), called for every context that
 * adds shared schemas: bodies are JSON and validated as sent, with every error reported; path, query and
 * headers are strings and coerced to their declared types.
 */
export function buildValidator(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  const strictBody = makeAjv(false, externalSchemas)
  const coercingParts = makeAjv(true, externalSchemas)
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strictBody : coercingParts
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>
  }
}

import { Ajv, type ValidateFunction } from 'ajv'
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
    // Unknown body fields are refused, never dropped (docs/decisions.md "REST conventions").
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
    return refusingNul(ajv.compile(schema as object)) as ReturnType<FastifySchemaCompiler<unknown>>
  }
}

/** The JSON pointer of the first string (or property name) in `data` that holds a NUL character, if any. */
function nulPath(data: unknown, path = ''): string | undefined {
  if (typeof data === 'string') return data.includes('\u0000') ? path : undefined
  if (data === null || typeof data !== 'object') return undefined
  for (const [key, value] of Object.entries(data)) {
    const child = `${path}/${key}`
    if (key.includes('\u0000')) return child
    const found = nulPath(value, child)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * PostgreSQL's text cannot hold a NUL character ("invalid byte sequence for encoding UTF8: 0x00"), so every string
 * of every request part is refused here, once for all routes, as a 422 naming the field (code `no_nul`).
 */
function refusingNul(validate: ValidateFunction): ValidateFunction {
  const guarded = ((data: unknown) => {
    const path = nulPath(data)
    if (path !== undefined) {
      guarded.errors = [
        {
          instancePath: path,
          schemaPath: '#',
          keyword: 'no_nul',
          params: {},
          message: 'must not contain a NUL character',
        },
      ]
      return false
    }
    const valid = validate(data)
    guarded.errors = validate.errors
    return valid
  }) as ValidateFunction
  return guarded
}

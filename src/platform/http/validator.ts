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
  return compilerOf(makeAjv(false, externalSchemas), makeAjv(true, externalSchemas))
}

function compilerOf(strictBody: Ajv, coercingParts: Ajv): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strictBody : coercingParts
    return refusingNul(ajv.compile(schema as object)) as ReturnType<FastifySchemaCompiler<unknown>>
  }
}

/**
 * The validator factory of one app. Fastify asks for a new validator compiler for every route of a context that
 * added shared schemas (its `addedSchemas` flag is never reset), and the root adds the problem schema: building
 * two Ajv instances for each, each compiling the JSON Schema meta-schema, was most of an app's start. The app's
 * contexts share one pair instead, each adding its shared schemas to it; a context whose schema id is already
 * taken by another object gets a pair of its own.
 */
export function sharedValidatorBuilder(): (
  externalSchemas?: Record<string, unknown>,
) => FastifySchemaCompiler<unknown> {
  const pairs: {
    schemas: Map<string, unknown>
    strictBody: Ajv
    coercingParts: Ajv
    compiler: FastifySchemaCompiler<unknown>
  }[] = []
  return (externalSchemas = {}) => {
    const wanted = Object.entries(externalSchemas)
    let pair = pairs.find((p) => wanted.every(([id, schema]) => (p.schemas.get(id) ?? schema) === schema))
    if (!pair) {
      const strictBody = makeAjv(false, {})
      const coercingParts = makeAjv(true, {})
      pair = { schemas: new Map(), strictBody, coercingParts, compiler: compilerOf(strictBody, coercingParts) }
      pairs.push(pair)
    }
    for (const [id, schema] of wanted) {
      if (pair.schemas.has(id)) continue
      pair.schemas.set(id, schema)
      pair.strictBody.addSchema(schema as object)
      pair.coercingParts.addSchema(schema as object)
    }
    return pair.compiler
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

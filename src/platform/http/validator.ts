import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'
import { contentIdOf } from './schema-content.ts'

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
 * A validator compiler of its own, for what is validated outside a route (the GraphQL API's inputs): bodies are
 * JSON and validated as sent, with every error reported; path, query and headers are strings and coerced to their
 * declared types. The routes' compilers come from `buildSharedValidator`.
 */
export function buildValidator(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  return compilerOf(makeAjv(false, externalSchemas), makeAjv(true, externalSchemas))
}

/** A compiler on a pair of Ajv instances, which keeps what it compiled by the schema's content and the part. */
function compilerOf(strictBody: Ajv, coercingParts: Ajv): FastifySchemaCompiler<unknown> {
  const compiled = new Map<string, ValidateFunction>()
  return ({ schema, httpPart }) => {
    const body = httpPart === 'body'
    const key = `${body ? 'body' : 'part'}|${contentIdOf(schema)}`
    let validate = compiled.get(key)
    if (!validate) {
      validate = (body ? strictBody : coercingParts).compile(schema as object)
      compiled.set(key, validate)
    }
    return refusingNul(validate) as ReturnType<FastifySchemaCompiler<unknown>>
  }
}

/**
 * The pairs of Ajv instances of this process. Fastify asks for a new validator compiler for every route of a
 * context that added shared schemas (its `addedSchemas` flag is never reset), and the root adds the problem schema:
 * building two Ajv instances for each, each compiling the JSON Schema meta-schema, was most of an app's start. The
 * contexts share one pair instead, each adding its shared schemas to it; a context whose schema id is already taken
 * by another schema gets a pair of its own. The pairs outlive an app and keep what they compiled by the schema's
 * content (Fastify hands each app copies), so an app built again in the same process (a test file after another)
 * finds its routes' validators compiled.
 */
const pairs: {
  /** The content of each shared schema the pair holds, by id. */
  schemas: Map<string, number>
  strictBody: Ajv
  coercingParts: Ajv
  compiler: FastifySchemaCompiler<unknown>
}[] = []

/** Fastify's validator factory (schemaController.compilersFactory.buildValidator): see `pairs`. */
export function buildSharedValidator(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  const wanted = Object.entries(externalSchemas).map(([id, schema]) => ({
    id,
    schema,
    content: contentIdOf(schema),
  }))
  let pair = pairs.find((p) => wanted.every(({ id, content }) => (p.schemas.get(id) ?? content) === content))
  if (!pair) {
    const strictBody = makeAjv(false, {})
    const coercingParts = makeAjv(true, {})
    pair = { schemas: new Map(), strictBody, coercingParts, compiler: compilerOf(strictBody, coercingParts) }
    pairs.push(pair)
  }
  for (const { id, schema, content } of wanted) {
    if (pair.schemas.has(id)) continue
    try {
      pair.strictBody.addSchema(schema as object)
      pair.coercingParts.addSchema(schema as object)
    } catch (error) {
      // The pair's two instances may now differ, and it outlives this app: no later app may take it.
      pairs.splice(pairs.indexOf(pair), 1)
      throw error
    }
    pair.schemas.set(id, content)
  }
  return pair.compiler
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

import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    // Unknown body fields are refused, never dropped (DECISIONS.md "REST conventions").
    removeAdditional: false,
    useDefaults: true,
    strict: false,
  })
  // ajv-formats ships CommonJS with a default export that ESM sees as the module object.
  ;(addFormats as unknown as { default: typeof addFormats }).default
    ? (addFormats as unknown as { default: (a: Ajv) => void }).default(ajv)
    : (addFormats as unknown as (a: Ajv) => void)(ajv)
  return ajv
}

const strictBody = makeAjv(false)
const coercingParts = makeAjv(true)

/** Bodies are JSON and validated as sent; path, query and headers are strings and coerced to their types. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictBody : coercingParts
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>
}

import type { FastifySchemaValidationError } from 'fastify'
import type { FieldError } from './app-error.ts'

/** Turns AJV's errors into `{field, message, code}` entries with dot paths. */
export function fieldErrors(errors: readonly FastifySchemaValidationError[]): FieldError[] {
  const seen = new Set<string>()
  const result: FieldError[] = []
  for (const error of explainUnions(errors)) {
    const entry = 'keyword' in error ? toFieldError(error) : error
    const key = `${entry.field}|${entry.code}`
    if (seen.has(key)) continue
    seen.add(key)
    result.push(entry)
  }
  return result
}

const fieldOf = (instancePath: string) => instancePath.replace(/^\//, '').replaceAll('/', '.')

/**
 * AJV answers a value that fits no branch of a union (`anyOf`) with every branch's errors and "must match a schema
 * in anyOf". This names what was expected instead: the errors of the one branch whose discriminator (`type`, a
 * literal) the value chose, or, when it chose none, the values the discriminator may take, or the types the value
 * may have (`string or null`).
 */
function explainUnions(errors: readonly FastifySchemaValidationError[]): (FastifySchemaValidationError | FieldError)[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' && e.schemaPath)
  if (unions.length === 0) return [...errors]
  // The outermost first: an inner union is explained inside the branch that holds it.
  const outer = unions.filter((u) => !unions.some((o) => o !== u && u.schemaPath.startsWith(`${o.schemaPath}/`)))
  const replaced = new Set<FastifySchemaValidationError>()
  const explained: (FastifySchemaValidationError | FieldError)[] = []
  for (const union of outer) {
    const prefix = `${union.schemaPath}/`
    const branchErrors = errors.filter((e) => e.schemaPath.startsWith(prefix))
    for (const e of [union, ...branchErrors]) replaced.add(e)
    const branches = new Map<string, FastifySchemaValidationError[]>()
    for (const e of branchErrors) {
      const branch = e.schemaPath.slice(prefix.length).split('/')[0]
      branches.set(branch, [...(branches.get(branch) ?? []), e])
    }
    const literal = (e: FastifySchemaValidationError) => e.keyword === 'const' || e.keyword === 'enum'
    const chosen = [...branches.values()].filter((list) => !list.some(literal))
    if (chosen.length === 1) {
      explained.push(...explainUnions(chosen[0]))
      continue
    }
    const literals = branchErrors.filter(literal)
    const at = literals[0]?.instancePath
    if (chosen.length === 0 && literals.length > 0 && literals.every((e) => e.instancePath === at)) {
      const allowed = literals.flatMap((e) => {
        const params = e.params as { allowedValue?: unknown; allowedValues?: unknown[] }
        return e.keyword === 'const' ? [params.allowedValue] : (params.allowedValues ?? [])
      })
      explained.push({
        field: fieldOf(at ?? union.instancePath) || '(body)',
        message: `must be one of ${[...new Set(allowed.map(String))].join(', ')}`,
        code: 'invalid_enum',
      })
      continue
    }
    const types = branchErrors.filter((e) => e.keyword === 'type' && e.instancePath === union.instancePath)
    if (types.length === branches.size) {
      explained.push({
        field: fieldOf(union.instancePath) || '(body)',
        message: `must be ${[...new Set(types.map((e) => String((e.params as { type: unknown }).type)))].join(' or ')}`,
        code: 'invalid_type',
      })
      continue
    }
    explained.push(...branchErrors.filter((e) => !literal(e)))
  }
  return [...errors.filter((e) => !replaced.has(e)), ...explained]
}

/** Fields the server owns: naming them in a body is refused as read-only rather than unknown. */
const READ_ONLY = new Set(['id', 'org_id', 'created_at', 'updated_at', 'currency'])

function toFieldError(error: FastifySchemaValidationError): FieldError {
  const base = fieldOf(error.instancePath)
  const params = error.params as Record<string, unknown>
  const join = (child: string) => (base ? `${base}.${child}` : child)
  switch (error.keyword) {
    case 'required':
      return { field: join(String(params.missingProperty)), message: 'is required', code: 'required' }
    case 'additionalProperties':
      if (READ_ONLY.has(String(params.additionalProperty))) {
        return { field: join(String(params.additionalProperty)), message: 'is read-only', code: 'read_only' }
      }
      return {
        field: join(String(params.additionalProperty)),
        message: 'is not a known field',
        code: 'unknown_field',
      }
    case 'type':
      return { field: base || '(body)', message: `must be ${String(params.type)}`, code: 'invalid_type' }
    case 'enum':
      return {
        field: base,
        message: `must be one of ${(params.allowedValues as unknown[]).join(', ')}`,
        code: 'invalid_enum',
      }
    case 'const':
      return { field: base, message: `must be ${JSON.stringify(params.allowedValue)}`, code: 'invalid_value' }
    case 'minLength':
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'minItems':
    case 'maxItems':
      return { field: base, message: error.message ?? 'is out of range', code: 'out_of_range' }
    case 'format':
    case 'pattern':
      return { field: base, message: error.message ?? 'has an invalid format', code: 'invalid_format' }
    default:
      return { field: base || '(body)', message: error.message ?? 'is invalid', code: error.keyword }
  }
}

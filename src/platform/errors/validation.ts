import type { FastifySchemaValidationError } from 'fastify'
import type { FieldError } from './app-error.ts'

/** Turns AJV's errors into `{field, message, code}` entries with dot paths. */
export function fieldErrors(errors: readonly FastifySchemaValidationError[]): FieldError[] {
  const seen = new Set<string>()
  const result: FieldError[] = []
  for (const error of errors) {
    const entry = toFieldError(error)
    const key = `${entry.field}|${entry.code}`
    if (seen.has(key)) continue
    seen.add(key)
    result.push(entry)
  }
  return result
}

/** Fields the server owns: naming them in a body is refused as read-only rather than unknown. */
const READ_ONLY = new Set(['id', 'org_id', 'created_at', 'updated_at', 'currency'])

function toFieldError(error: FastifySchemaValidationError): FieldError {
  const base = error.instancePath.replace(/^\//, '').replaceAll('/', '.')
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

import { type TSchema, Type } from 'typebox'
import { codeOfStatus } from '../errors/app-error.ts'

/** RFC 9457 problem details as every error leaves the server. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    code: Type.String({ description: 'stable UPPER_SNAKE error code (docs/api-conventions.md "Error codes")' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ description: 'a dot path into the body or query, e.g. lines.0.quantity' }),
          message: Type.String(),
          code: Type.String({
            description:
              'what is wrong with the field: required, unknown_field, read_only, invalid_type, invalid_enum, invalid_value, out_of_range, invalid_format, too_precise, not_found, conflicting, missing_scope, and the codes an area adds (docs/api-conventions.md "Field errors")',
          }),
        }),
        { description: 'one entry per bad field, for a 422 (and a 400 that names fields)' },
      ),
    ),
    orgs: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), {
        description: 'ORG_REQUIRED: the stores this e-mail and password may sign in to; sign in again with org_id',
      }),
    ),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
)

/** A problem answer and the codes it may carry, listed in the OpenAPI (`x-error-codes`, and its description). */
export const problemRef = (codes: readonly string[]) =>
  Type.Ref('Problem', { description: `code: ${codes.join(' | ')}`, 'x-error-codes': [...codes] })

/** A status (its generic code: 404 → NOT_FOUND), or a module's error of the catalog (createError). */
type DeclaredError = number | { readonly status: number; readonly code: string }

/**
 * The error answers a route can give beyond the platform's, for its response schema map (docs and
 * serialization): statuses (404) and the module codes it may answer. What follows from what the route is (400
 * and 422 from its inputs, 401 and 403 from its scope, idempotency on POST, 503) is added to every route as it
 * registers (error-codes.ts), so a route lists only what its own code can answer.
 */
export function errorResponses(...declared: DeclaredError[]): Record<number, TSchema> {
  const codes = new Map<number, string[]>()
  for (const item of declared) {
    const [status, code] = typeof item === 'number' ? [item, codeOfStatus(item)] : [item.status, item.code]
    codes.set(status, [...(codes.get(status) ?? []), code])
  }
  return Object.fromEntries([...codes].map(([status, list]) => [status, problemRef(list)]))
}

/** An answer without a body (204, or RFC 7009's 200), saying what was done. */
export const EmptyBody = (description: string) => ({ type: 'null', description: `${description}; empty body` }) as const

/** `{ "data": {…} }`, the envelope of one resource. */
export function DataOf<T extends TSchema>(schema: T) {
  return Type.Object({ data: schema })
}

const PaginationSchema = Type.Object({
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  hasMore: Type.Boolean(),
})

/** `{ "data": […], "pagination": {…} }`, the envelope of a list. */
export function ListOf<T extends TSchema>(schema: T) {
  return Type.Object({ data: Type.Array(schema), pagination: PaginationSchema })
}

export const PageQuery = {
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'page size, 1 to 200' }),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'opaque cursor from pagination.nextCursor' }),
  ),
}

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

/** A list that may also be read newest first (orders, stock movements, shifts): the latest are what a person wants. */
export const ListOrder = Type.Optional(
  Type.Union([Type.Literal('oldest'), Type.Literal('newest')], {
    description: 'oldest first (the default) or newest first; send the same order with each page’s cursor',
  }),
)

/** ISO 8601 UTC with milliseconds. */
export const Timestamp = Type.String({ format: 'date-time' })

/** A money amount in the org currency's major unit (`12.5`); stored as integer minor units. */
export const Money = Type.Number({ description: 'decimal amount in the currency major unit' })

export const Version = Type.Integer({ minimum: 1, description: 'optimistic concurrency version' })

/**
 * A schema's Static type with the named timestamps as the Date objects services hand over: the response
 * serializer writes them as the ISO 8601 strings the schema declares.
 */
export type Dated<T, K extends keyof T> = { [P in keyof T]: P extends K ? Exclude<T[P], string> | Date : T[P] }

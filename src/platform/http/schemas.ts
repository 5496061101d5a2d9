import { type TSchema, Type } from 'typebox'

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
      Type.Array(Type.Object({ field: Type.String(), message: Type.String(), code: Type.String() })),
    ),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
)

const problemRef = Type.Ref('Problem')

/** The error answers a route can give, for its response schema map (docs and serialization). */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const all = statuses.length > 0 ? statuses : [400, 401, 403, 404, 422]
  return Object.fromEntries(all.map((s) => [s, problemRef]))
}

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

/** ISO 8601 UTC with milliseconds. */
export const Timestamp = Type.String({ format: 'date-time' })

/** A money amount in the org currency's major unit (`12.5`); stored as integer minor units. */
export const Money = Type.Number({ description: 'decimal amount in the currency major unit' })

export const Version = Type.Integer({ minimum: 1, description: 'optimistic concurrency version' })

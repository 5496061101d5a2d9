import { GraphQLError } from 'graphql'
import { AppError, type ErrorKind, type FieldError } from '../../../platform/errors/app-error.ts'

/** GraphQL error codes, as Apollo and most GraphQL clients name them, for each of the REST error kinds. */
const codes: Partial<Record<ErrorKind, string>> = {
  'bad-request': 'BAD_REQUEST',
  unauthorized: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  validation: 'BAD_USER_INPUT',
  'rate-limited': 'RATE_LIMITED',
  'method-not-allowed': 'METHOD_NOT_ALLOWED',
}

/** The service layer names fields as REST does (snake_case); GraphQL names them in camelCase. */
function camelField(field: string): string {
  return field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
}

export function unauthenticated(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED', status: 401 } })
}

export function forbiddenError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'FORBIDDEN', status: 403 } })
}

export function userInputError(errors: FieldError[]): GraphQLError {
  const named = errors.map((e) => ({ ...e, field: camelField(e.field) }))
  const message = named.map((e) => `${e.field} ${e.message}`).join('; ')
  return new GraphQLError(message, {
    extensions: { code: 'BAD_USER_INPUT', status: 422, field: named[0]?.field, errors: named },
  })
}

/** An AppError of the services as a GraphQL error with the same meaning; anything else is left to the formatter. */
export function toGraphqlError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error
  if (error.kind === 'validation' && error.errors?.length) return userInputError(error.errors)
  const message = error.kind === 'not-found' ? capitalise(error.message) : error.message
  const extensions: Record<string, unknown> = {
    code: codes[error.kind] ?? 'INTERNAL_SERVER_ERROR',
    status: error.status,
  }
  if (error.errors?.length) extensions.errors = error.errors.map((e) => ({ ...e, field: camelField(e.field) }))
  return new GraphQLError(message, { extensions })
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

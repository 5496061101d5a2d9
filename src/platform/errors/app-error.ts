/** One error catalog: a stable kind, its status and a safe title (docs/decisions.md "Errors"). */
export const errorKinds = {
  'bad-request': { status: 400, title: 'Bad Request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not Found' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed' },
  conflict: { status: 409, title: 'Conflict' },
  'payload-too-large': { status: 413, title: 'Payload Too Large' },
  'uri-too-long': { status: 414, title: 'URI Too Long' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type' },
  validation: { status: 422, title: 'Unprocessable Entity' },
  'rate-limited': { status: 429, title: 'Too Many Requests' },
  internal: { status: 500, title: 'Internal Server Error' },
  unavailable: { status: 503, title: 'Service Unavailable' },
} as const

export type ErrorKind = keyof typeof errorKinds

export interface FieldError {
  /** A dot path into the request body or query, e.g. `lines.0.quantity`. */
  field: string
  message: string
  code: string
}

/** The generic code of a kind (`conflict` → `CONFLICT`), for errors no module has named more precisely. */
export const kindCode = (kind: ErrorKind) => kind.toUpperCase().replaceAll('-', '_')

/** The generic code of a status (404 → NOT_FOUND), for routes that declare a status rather than a code. */
export function codeOfStatus(status: number): string {
  const kind = (Object.keys(errorKinds) as ErrorKind[]).find((k) => errorKinds[k].status === status)
  if (!kind) throw new Error(`no error kind has status ${status}`)
  return kindCode(kind)
}

export class AppError extends Error {
  readonly kind: ErrorKind
  /** Stable UPPER_SNAKE code that clients branch on (docs/api-conventions.md "Error codes"). */
  readonly code: string
  readonly status: number
  readonly errors?: FieldError[]
  readonly headers?: Record<string, string>
  /** What a client needs to act on the problem (ORG_REQUIRED's stores), sent as extension members. */
  readonly orgs?: { id: string; name: string }[]

  constructor(
    kind: ErrorKind,
    detail: string,
    options: {
      errors?: FieldError[]
      headers?: Record<string, string>
      code?: string
      orgs?: { id: string; name: string }[]
    } = {},
  ) {
    super(detail)
    this.name = 'AppError'
    this.kind = kind
    this.code = options.code ?? kindCode(kind)
    this.status = errorKinds[kind].status
    this.errors = options.errors
    this.headers = options.headers
    this.orgs = options.orgs
  }
}

export const notFound = (what: string) => new AppError('not-found', `${what} not found`)
export const badRequest = (detail: string, errors?: FieldError[]) => new AppError('bad-request', detail, { errors })
export const invalid = (field: string, message: string, code = 'invalid') =>
  new AppError('validation', `${field} ${message}`, { errors: [{ field, message, code }] })
export const unauthorized = (detail = 'missing or invalid bearer token', headers?: Record<string, string>) =>
  new AppError('unauthorized', detail, { headers: headers ?? { 'www-authenticate': 'Bearer' } })
export const forbidden = (detail: string, headers?: Record<string, string>) =>
  new AppError('forbidden', detail, { headers })

import { AppError, type ErrorKind, errorKinds, type FieldError } from './app-error.ts'

interface ErrorOptions {
  errors?: FieldError[]
  headers?: Record<string, string>
  orgs?: { id: string; name: string }[]
}

/** A named error of the catalog: call it with the detail of one occurrence. */
interface CodedError {
  (detail: string, options?: ErrorOptions): AppError
  readonly code: string
  readonly kind: ErrorKind
  readonly status: number
}

/**
 * Declares one entry of an error catalog, in the fastify style (`createError(code, kind)`): the code is stable and
 * UPPER_SNAKE, the kind gives the status and title. Modules keep theirs in `<domain>.errors.ts`.
 */
export function createError(code: string, kind: ErrorKind): CodedError {
  if (!/^[A-Z][A-Z0-9_]*$/.test(code)) throw new Error(`error code ${code} is not UPPER_SNAKE`)
  const make = (detail: string, options: ErrorOptions = {}) => new AppError(kind, detail, { ...options, code })
  return Object.assign(make, { code, kind, status: errorKinds[kind].status })
}

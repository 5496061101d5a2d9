import { type ErrorKind, errorKinds, type FieldError } from './app-error.ts'

export const PROBLEM_BASE = 'https://errors.opentill.dev/'

/** RFC 9457 problem details, the body of every REST error. */
export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  instance: string
  errors?: FieldError[]
  requestId?: string
}

export function problem(kind: ErrorKind, detail: string, instance: string, extra: Partial<Problem> = {}): Problem {
  const { status, title } = errorKinds[kind]
  return { type: PROBLEM_BASE + kind, title, status, detail, instance, ...extra }
}

import { type ErrorKind, errorKinds, type FieldError, kindCode } from './app-error.ts'

const PROBLEM_BASE = 'https://errors.opentill.dev/'

/** RFC 9457 problem details, the body of every REST error. */
interface Problem {
  /** PROBLEM_BASE + the code in kebab case, so that the type names the code. */
  type: string
  /** Stable UPPER_SNAKE code: the kind's generic code (`CONFLICT`) or a module's own (`ORDER_NOT_OPEN`). */
  code: string
  title: string
  status: number
  detail: string
  instance: string
  errors?: FieldError[]
  /** ORG_REQUIRED: the stores the person may sign in to (an RFC 9457 extension member). */
  orgs?: { id: string; name: string }[]
  requestId?: string
}

const problemType = (code: string) => PROBLEM_BASE + code.toLowerCase().replaceAll('_', '-')

export function problem(
  kind: ErrorKind,
  detail: string,
  instance: string,
  extra: Partial<Omit<Problem, 'type'>> = {},
): Problem {
  const { status, title } = errorKinds[kind]
  const code = extra.code ?? kindCode(kind)
  return { type: problemType(code), code, title, status, detail, instance, ...extra }
}

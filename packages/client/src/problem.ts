/** An RFC 9457 problem as the API answers it, with the codes of the operation that answered it. */
export interface ProblemBody<Code extends string = string> {
  type: string
  code: Code
  title: string
  status: number
  detail: string
  instance: string
  errors?: { field: string; message: string; code: string }[]
  requestId?: string
}

/** The codes an answer's error type may carry (the enum the document declares on `code`). */
export type CodeOf<E> = E extends { code: infer C extends string } ? C : string

/** A problem answer, thrown by `unwrap`: `code` is one of the operation's codes, so a switch on it is checked. */
export class OpenTillProblem<Code extends string = string> extends Error {
  readonly status: number
  readonly code: Code
  readonly detail: string
  readonly errors: readonly { field: string; message: string; code: string }[]
  readonly requestId: string | undefined

  constructor(body: ProblemBody<Code>) {
    super(`${body.status} ${body.code}: ${body.detail}`)
    this.name = 'OpenTillProblem'
    this.status = body.status
    this.code = body.code
    this.detail = body.detail
    this.errors = body.errors ?? []
    this.requestId = body.requestId
  }
}

function describe(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error)
  const { error: code, error_description: text } = error as { error?: unknown; error_description?: unknown }
  return typeof text === 'string' ? text : typeof code === 'string' ? code : JSON.stringify(error)
}

/**
 * The data of a call, or its problem thrown as an OpenTillProblem typed by the operation's codes:
 * `const order = await unwrap(client.POST('/api/v1/orders', { body }))`.
 */
export async function unwrap<D, E>(call: Promise<{ data?: D; error?: E; response: Response }>): Promise<D> {
  const { data, error, response } = await call
  if (error !== undefined) {
    const body = error as unknown as ProblemBody<CodeOf<E>>
    throw new OpenTillProblem<CodeOf<E>>(
      typeof body === 'object' && body !== null && 'code' in body
        ? body
        : {
            type: 'about:blank',
            code: 'UNKNOWN' as CodeOf<E>,
            title: response.statusText,
            status: response.status,
            // An error in a format of its own: OAuth's (RFC 6749 §5.2) says what went wrong in error_description.
            detail: describe(error),
            instance: new URL(response.url || 'http://unknown').pathname,
          },
    )
  }
  return data as D
}

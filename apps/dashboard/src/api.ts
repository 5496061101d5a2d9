import { createOpenTillClient, type OpenTillClient, OpenTillProblem } from '@opentill/client'
import { accessToken, freshGrant } from './session.ts'

let client: OpenTillClient | undefined

/** The typed client of the public API, with the back office's token; made once the API's address is known. */
export function startClient(apiUrl: string): OpenTillClient {
  client = createOpenTillClient({
    baseUrl: apiUrl,
    accessToken,
    fetch: async (input, init) => {
      const request = new Request(input, init)
      const response = await fetch(request.clone())
      if (response.status !== 401) return response
      // The token was refused: a new one from the web session, once. A session that ended (signed out,
      // deactivated) answers 401 there and the page goes to sign in; a token refused again is an answer to show.
      const { access_token } = await freshGrant()
      request.headers.set('authorization', `Bearer ${access_token}`)
      return fetch(request)
    },
  })
  return client
}

export function api(): OpenTillClient {
  if (!client) throw new Error('the client is not started')
  return client
}

/** The message a person reads for a failed call. */
export function problemText(error: unknown): string {
  if (error instanceof OpenTillProblem) return error.detail || error.code
  return error instanceof Error ? error.message : String(error)
}

/** The field errors of a problem, by field name (`lines.0.quantity`), for the form to show beside each field. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof OpenTillProblem)) return {}
  return Object.fromEntries(error.errors.map((e) => [e.field, e.message]))
}

/**
 * A typed amount or count as the API takes it. Empty or not a number goes as null (JSON has no NaN), so the API
 * answers with the field's error rather than the page guessing a zero.
 */
export function numberOf(text: string): number {
  const trimmed = text.trim()
  return trimmed === '' ? Number.NaN : Number(trimmed.replace(',', '.'))
}

import { createOpenTillClient, type OpenTillClient, OpenTillProblem } from '@opentill/client'
import { accessToken, signInAgain } from './session.ts'

let client: OpenTillClient | undefined

/** The typed client of the public API, with the back office's token; made once the API's address is known. */
export function startClient(apiUrl: string): OpenTillClient {
  client = createOpenTillClient({
    baseUrl: apiUrl,
    accessToken,
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      // A session ended elsewhere (signed out, role changed, deactivated): sign in again.
      if (response.status === 401) signInAgain()
      return response
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

import { randomBytes } from 'node:crypto'

/**
 * The adapter a card processor plugs in behind (docs/decisions.md "Payments go through a processor adapter").
 * Every method is an outbound call: the payments service calls them outside any database transaction it opens
 * (authorize first, then record the outcome in a transaction).
 */
export interface PaymentProcessor {
  readonly name: string
  /** `reference` (the payment's id) is sent as the processor's idempotency key: a repeat gets the first answer. */
  authorize(request: {
    amount: bigint
    currency: string
    token: string
    capture: boolean
    reference: string
  }): Promise<ProcessorResult>
  capture(request: { processorRef: string; amount: bigint; currency: string }): Promise<ProcessorResult>
  void(request: { processorRef: string }): Promise<ProcessorResult>
  /** `reference` (the refund's id and the payment's) is the idempotency key: a refund resumed later is not repeated. */
  refund(request: {
    processorRef: string
    amount: bigint
    currency: string
    reference: string
  }): Promise<ProcessorResult>
}

export type ProcessorResult = { ok: true; processorRef: string } | { ok: false; code: string; message: string }

/** How many answers the test processor remembers by reference. */
const REMEMBERED = 10_000

/** The token the test processor declines, as Stripe's test cards do. */
const DECLINED_TOKEN = 'pm_card_declined'

/**
 * The built-in test processor: declines `pm_card_declined`, approves every other token, in process and at once.
 * Like a real processor it answers a repeated `reference` with its first answer (its idempotency key), for the
 * authorizations and refunds of the last while (kept in memory only: a restart must not strand test payments).
 */
export class TestProcessor implements PaymentProcessor {
  readonly name = 'test'
  private readonly answered = new Map<string, ProcessorResult>()

  async authorize(request: { token: string; reference: string }): Promise<ProcessorResult> {
    return this.once(`authorize:${request.reference}`, () =>
      request.token === DECLINED_TOKEN
        ? { ok: false, code: 'card_declined', message: 'the card was declined' }
        : { ok: true, processorRef: `tp_${randomBytes(12).toString('hex')}` },
    )
  }

  async capture(request: { processorRef: string }): Promise<ProcessorResult> {
    return { ok: true, processorRef: request.processorRef }
  }

  async void(request: { processorRef: string }): Promise<ProcessorResult> {
    return { ok: true, processorRef: request.processorRef }
  }

  async refund(request: { reference: string }): Promise<ProcessorResult> {
    return this.once(`refund:${request.reference}`, () => ({
      ok: true,
      processorRef: `tpr_${randomBytes(12).toString('hex')}`,
    }))
  }

  /** The first answer to a reference, as an idempotency key gives it. */
  private once(reference: string, answer: () => ProcessorResult): ProcessorResult {
    const earlier = this.answered.get(reference)
    if (earlier) return earlier
    const result = answer()
    this.answered.set(reference, result)
    // A bounded memory: the oldest answers go first (Map keeps insertion order).
    if (this.answered.size > REMEMBERED) this.answered.delete(this.answered.keys().next().value!)
    return result
  }
}

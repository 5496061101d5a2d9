import { randomBytes } from 'node:crypto'

/**
 * The adapter a card processor plugs in behind (docs/decisions.md "Payments go through a processor adapter").
 * Every method is an outbound call: the payments service calls them outside any database transaction it opens
 * (authorize first, then record the outcome in a transaction).
 */
export interface PaymentProcessor {
  readonly name: string
  authorize(request: {
    amount: bigint
    currency: string
    token: string
    capture: boolean
    reference: string
  }): Promise<ProcessorResult>
  capture(request: { processorRef: string; amount: bigint; currency: string }): Promise<ProcessorResult>
  void(request: { processorRef: string }): Promise<ProcessorResult>
  refund(request: {
    processorRef: string
    amount: bigint
    currency: string
    reference: string
  }): Promise<ProcessorResult>
}

export type ProcessorResult = { ok: true; processorRef: string } | { ok: false; code: string; message: string }

/** The token the test processor declines, as Stripe's test cards do. */
export const DECLINED_TOKEN = 'pm_card_declined'

/**
 * The built-in test processor: declines `pm_card_declined`, approves every other token, in process and at once.
 * It keeps no state (a restart must not strand captured test payments); amounts are guarded by the database.
 */
export class TestProcessor implements PaymentProcessor {
  readonly name = 'test'

  async authorize(request: { token: string }): Promise<ProcessorResult> {
    if (request.token === DECLINED_TOKEN) return { ok: false, code: 'card_declined', message: 'the card was declined' }
    return { ok: true, processorRef: `tp_${randomBytes(12).toString('hex')}` }
  }

  async capture(request: { processorRef: string }): Promise<ProcessorResult> {
    return { ok: true, processorRef: request.processorRef }
  }

  async void(request: { processorRef: string }): Promise<ProcessorResult> {
    return { ok: true, processorRef: request.processorRef }
  }

  async refund(): Promise<ProcessorResult> {
    return { ok: true, processorRef: `tpr_${randomBytes(12).toString('hex')}` }
  }
}

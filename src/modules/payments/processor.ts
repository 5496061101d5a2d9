import { randomBytes } from 'node:crypto'
import { PaymentErrors } from './payments.errors.ts'

/**
 * The adapter a card processor plugs in behind (docs/decisions.md "Payments go through a processor adapter").
 * Every method is an outbound call: the payments service calls them outside any database transaction it opens
 * (authorize first, then record the outcome in a transaction).
 */
export interface PaymentProcessor {
  readonly name: string
  /** `reference` (the payment's id) is sent as the processor's idempotency key: a repeat gets the first answer. */
  authorize(
    request: {
      amount: bigint
      currency: string
      token: string
      capture: boolean
      reference: string
    } & Abortable,
  ): Promise<ProcessorResult>
  capture(request: { processorRef: string; amount: bigint; currency: string } & Abortable): Promise<ProcessorResult>
  /**
   * Changes the amount of an authorization not yet captured to `amount` (a tip added: Square's UpdatePayment,
   * Stripe's incremental authorization). `reference` (the payment's id and the amount) is the idempotency key.
   */
  adjust(
    request: { processorRef: string; amount: bigint; currency: string; reference: string } & Abortable,
  ): Promise<ProcessorResult>
  void(request: { processorRef: string } & Abortable): Promise<ProcessorResult>
  /** `reference` (the refund's id and the payment's) is the idempotency key: a refund resumed later is not repeated. */
  refund(
    request: {
      processorRef: string
      amount: bigint
      currency: string
      reference: string
    } & Abortable,
  ): Promise<ProcessorResult>
}

/** Aborted when the call has taken PROCESSOR_TIMEOUT_MS: an adapter passes it to its HTTP client. */
interface Abortable {
  signal?: AbortSignal
}

/**
 * The processor with a deadline on every call: a call that has not answered within `timeoutMs` is abandoned (its
 * signal aborted) and answered `503 PROCESSOR_TIMEOUT`. The deadline stays well under the Idempotency-Key's lock
 * (60 s), so a client's retry with the same key finds the first attempt finished, and the processor, which knows
 * the call by its reference, gives the first answer again rather than charging twice.
 */
export function withDeadline(processor: PaymentProcessor, timeoutMs: number): PaymentProcessor {
  function timed<R extends Abortable>(what: string, call: (request: R) => Promise<ProcessorResult>) {
    return (request: R): Promise<ProcessorResult> => {
      const signal = AbortSignal.timeout(timeoutMs)
      return new Promise((resolve, reject) => {
        const onTimeout = () =>
          reject(
            PaymentErrors.PROCESSOR_TIMEOUT(
              `the card processor did not answer the ${what} within ${timeoutMs} ms; retry with the same Idempotency-Key`,
              { headers: { 'retry-after': '1' } },
            ),
          )
        signal.addEventListener('abort', onTimeout, { once: true })
        call({ ...request, signal })
          .then(resolve, reject)
          .finally(() => signal.removeEventListener('abort', onTimeout))
      })
    }
  }
  return {
    name: processor.name,
    authorize: timed('authorization', (r) => processor.authorize(r)),
    capture: timed('capture', (r) => processor.capture(r)),
    adjust: timed('tip adjustment', (r) => processor.adjust(r)),
    void: timed('void', (r) => processor.void(r)),
    refund: timed('refund', (r) => processor.refund(r)),
  }
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

  async adjust(request: { processorRef: string }): Promise<ProcessorResult> {
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

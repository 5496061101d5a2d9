import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Retries an assertion until it passes, answering what it answers, or until `ms` runs out, then throws its last
 * failure. For what settles after the response a test can wait on: a webhook attempt is logged after the
 * receiver has answered; the events API holds an event back while a transaction it cannot place in another
 * database runs (docs/events-and-kds.md). The limit only ends a wait for a state that never comes: a busy machine
 * makes a test slower, never failing (docs/testing.md).
 */
export async function eventually<T>(check: () => Promise<T>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await sleep(50)
    }
  }
}

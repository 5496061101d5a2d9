import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Retries an assertion until it passes or `ms` runs out, then throws its last failure. For reads that may lag
 * a poll behind on a server shared by parallel test files: the events API holds an event back while a
 * transaction it cannot place in another database runs (docs/events-and-kds.md).
 */
export async function eventually(check: () => Promise<void>, ms = 5_000): Promise<void> {
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

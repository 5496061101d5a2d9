/**
 * A background loop that polls for work: `tick` runs one batch and answers whether more is waiting (then the
 * next batch starts at once). Polling is what makes it correct: work committed while nobody listened, or before
 * a crash, is found on the next tick. `nudge` only shortens the wait after a commit in this process.
 */
export interface Poller {
  nudge(): void
  /** Stops after the batch in progress; resolves when it has finished. */
  stop(): Promise<void>
}

interface PollerOptions {
  intervalMs: number
  tick: () => Promise<boolean>
  onError: (error: unknown) => void
}

export function startPoller({ intervalMs, tick, onError }: PollerOptions): Poller {
  let stopped = false
  let wake: (() => void) | undefined
  let nudged = false

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (nudged || stopped) {
        nudged = false
        resolve()
        return
      }
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        wake = undefined
        nudged = false
        resolve()
      }
      wake = done
    })

  const loop = (async () => {
    while (!stopped) {
      let more = false
      try {
        more = await tick()
      } catch (error) {
        onError(error)
        // A failing database gets a pause, not a hot loop.
        more = false
      }
      if (!more && !stopped) await sleep(intervalMs)
    }
  })()

  return {
    nudge() {
      nudged = true
      wake?.()
    },
    async stop() {
      stopped = true
      wake?.()
      await loop
    },
  }
}

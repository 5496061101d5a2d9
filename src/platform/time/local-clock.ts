const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    formatters.set(timeZone, f)
  }
  return f
}

const ISO_DAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 }

interface LocalClock {
  isoDay: number
  minutes: number
}

// The wall clock only moves once a minute: each zone keeps the last minute it was asked for (Intl is slow).
const lastMinute = new Map<string, { minute: number; clock: LocalClock }>()

/** The wall clock of an IANA time zone at `at`: ISO day of the week (1 = Monday) and minutes after midnight. */
export function localClock(at: Date, timeZone: string): LocalClock {
  const minute = Math.floor(at.getTime() / 60_000)
  const kept = lastMinute.get(timeZone)
  if (kept?.minute === minute) return kept.clock
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  )
  const clock = { isoDay: ISO_DAYS[parts.weekday], minutes: Number(parts.hour) * 60 + Number(parts.minute) }
  if (lastMinute.size > 1000) lastMinute.clear()
  lastMinute.set(timeZone, { minute, clock })
  return clock
}

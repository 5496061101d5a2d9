import { exponentOf, toMinor } from '@opentill/client'

/**
 * Money, dates and numbers through Intl, in the store's currency and a time zone (the store's or a location's).
 * The API writes amounts as decimals of the currency; sums are made in minor units (`toMinor`) before display.
 */
export interface Locale {
  currency: string
  timeZone: string
  language: string
}

export function formatters({ currency, timeZone, language }: Locale) {
  const moneyFormat = new Intl.NumberFormat(language, { style: 'currency', currency })
  const numberFormat = new Intl.NumberFormat(language)
  const percentFormat = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 })
  return {
    money: (amount: number | string | null | undefined) =>
      amount === null || amount === undefined ? '—' : moneyFormat.format(Number(amount)),
    number: (n: number | null | undefined) => (n === null || n === undefined ? '—' : numberFormat.format(n)),
    percent: (ratio: number) => percentFormat.format(ratio),
    dateTime: (iso: string | null | undefined, zone = timeZone) =>
      iso
        ? new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(
            new Date(iso),
          )
        : '—',
    month: (month: string) =>
      new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${month}-01T00:00:00Z`),
      ),
    day: (day: string) =>
      new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`)),
    minor: (amount: number | string) => toMinor(amount, currency),
    /** An amount as a form field shows it: the currency's decimals, no symbol (4.5 is 4.50). */
    amount: (amount: number | string) => Number(amount).toFixed(exponentOf(currency)),
  }
}
export type Formatters = ReturnType<typeof formatters>

/** A local day (YYYY-MM-DD) in a time zone. */
export function localDay(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

/** A day some days before or after another (calendar arithmetic, no time zone). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** The Monday that starts a day's week. */
export function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay()
  return addDays(day, -((weekday + 6) % 7))
}

/** The instant a local day starts in a time zone, as the API's date-time filters take it. */
export function startOfDay(day: string, timeZone: string): string {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`)
  const offsetAt = (instant: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(instant))
    const v = Object.fromEntries(parts.map((p) => [p.type, Number(p.value)]))
    return Date.UTC(v.year, v.month - 1, v.day, v.hour, v.minute, v.second) - instant
  }
  // Twice, so a day that starts across a change of offset (daylight saving) lands on its own offset.
  const first = utcMidnight - offsetAt(utcMidnight)
  return new Date(utcMidnight - offsetAt(first)).toISOString()
}

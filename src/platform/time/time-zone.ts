/** Whether `zone` is an IANA time zone this runtime knows (e.g. Pacific/Auckland). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

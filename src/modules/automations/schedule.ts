import { CronExpressionParser } from 'cron-parser'

/** The problem with a cron expression, or undefined when it is a valid five-field expression. */
export function cronProblem(expression: string): string | undefined {
  if (expression.trim().split(/\s+/).length !== 5) return 'must have five fields (minute hour day month weekday)'
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC' })
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/**
 * The latest slot of the schedule in (after, now], read in the time zone `tz`, or undefined when none is due.
 * Slots missed while no worker ran collapse into this one run (docs/automations.md).
 */
export function dueSlot(expression: string, tz: string, after: Date, now: Date): Date | undefined {
  const latest = CronExpressionParser.parse(expression, { currentDate: new Date(now.getTime() + 1), tz })
    .prev()
    .toDate()
  return latest > after ? latest : undefined
}

/** `YYYY-MM-DDTHH:MM` of an instant on the wall clock of `tz`. */
export function localTime(at: Date, tz: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
}

/**
 * Schedule rules in turns across orgs: each org's first rule, then each org's second, and so on, so an org with a
 * thousand schedules delays another org's by one rule of its own per turn, not by its thousand.
 */
export function inTurnsByOrg<R extends { org_id: string }>(rules: readonly R[]): R[] {
  const byOrg = new Map<string, R[]>()
  for (const rule of rules) {
    const queue = byOrg.get(rule.org_id)
    if (queue) queue.push(rule)
    else byOrg.set(rule.org_id, [rule])
  }
  const queues = [...byOrg.values()]
  const turns: R[] = []
  for (let turn = 0; turns.length < rules.length; turn++)
    for (const queue of queues) if (turn < queue.length) turns.push(queue[turn])
  return turns
}

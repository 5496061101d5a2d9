import { unwrap } from '@opentill/client'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { api } from '../api.ts'
import { Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import type { Automation } from './automation-draft.ts'

const t = strings.automations

/** A rule's trigger in words: "When: Order completed at Quay", "On the schedule 0 9 * * * (Quay’s time)". */
export function triggerWords(rule: Automation, locationName: (id: string) => string | undefined): string {
  const { trigger } = rule
  if (trigger.type === 'schedule')
    return t.scheduleWords(trigger.cron, locationName(trigger.location_id) ?? trigger.location_id)
  const at = trigger.location_id ? locationName(trigger.location_id) : undefined
  return t.eventTrigger(strings.common.eventWords(trigger.event), at)
}

/** Whether a rule runs: on, off, or stopped (its author can no longer act for the store). */
export function RuleStatus({ rule }: { rule: Automation }) {
  return (
    <span className={`status ${rule.stopped ? 'status-voided' : rule.enabled ? 'status-completed' : ''}`}>
      {rule.stopped ? t.stopped : rule.enabled ? t.on : t.off}
    </span>
  )
}

/** Automations: the store's rules, each with its trigger in words and whether it runs; a new one from here. */
export function AutomationsPage(): ReactNode {
  const shop = useShop()
  const pager = useCursor()
  const rules = useQuery({
    queryKey: ['automations', pager.cursor],
    queryFn: () => unwrap(api().GET('/api/v1/automations', { params: { query: { limit: 25, cursor: pager.cursor } } })),
  })
  const locationName = (id: string) => shop.locations.find((l) => l.id === id)?.name
  return (
    <>
      <Title text={t.title}>
        {shop.can('automations:write') && (
          <Link className="button primary" to="/automations/$automationId" params={{ automationId: 'new' }}>
            {t.add}
          </Link>
        )}
      </Title>
      <p className="muted">{t.intro}</p>
      <ErrorNote error={rules.error} />
      {rules.data &&
        (rules.data.data.length === 0 ? (
          <Empty>{t.noneYet}</Empty>
        ) : (
          <ul className="plain">
            {rules.data.data.map((r) => (
              <li key={r.id} className="row">
                <span>
                  <Link to="/automations/$automationId" params={{ automationId: r.id }}>
                    {r.name}
                  </Link>{' '}
                  <small className="muted">
                    {triggerWords(r, locationName)} · {t.stepCount(r.actions.length)}
                  </small>
                </span>
                <RuleStatus rule={r} />
              </li>
            ))}
          </ul>
        ))}
      <Pager pager={pager} nextCursor={rules.data?.pagination.nextCursor} />
    </>
  )
}

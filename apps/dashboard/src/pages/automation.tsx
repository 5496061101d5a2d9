import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useParams } from '@tanstack/react-router'
import { type ReactNode, useState } from 'react'
import { api } from '../api.ts'
import { Confirm } from '../parts/confirm.tsx'
import { TextAreaField } from '../parts/field.tsx'
import { DoneNote, Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import { type Automation, draftOf, emptyDraft, type RuleBody, sampleData } from './automation-draft.ts'
import { RuleForm, useCatalog } from './automation-form.tsx'
import { RuleStatus, triggerWords } from './automations.tsx'

const t = strings.automations
type Run = components['schemas']['AutomationRun']

/** One automation: made or changed with the catalog's form, tried against sample data, its runs and their steps. */
export function AutomationPage(): ReactNode {
  const { automationId } = useParams({ from: '/automations/$automationId' })
  const rule = useQuery({
    queryKey: ['automation', automationId],
    queryFn: () => unwrap(api().GET('/api/v1/automations/{id}', { params: { path: { id: automationId } } })),
    enabled: automationId !== 'new',
  })
  if (automationId === 'new')
    return (
      <>
        <Title text={t.newTitle} />
        <Editor />
      </>
    )
  if (rule.error) return <ErrorNote error={rule.error} />
  if (!rule.data) return <p aria-busy="true">{strings.common.loading}</p>
  return <Rule rule={rule.data.data} />
}

function Rule({ rule }: { rule: Automation }): ReactNode {
  const shop = useShop()
  const locationName = (id: string) => shop.locations.find((l) => l.id === id)?.name
  return (
    <>
      <Title text={rule.name}>
        <RuleStatus rule={rule} />
      </Title>
      <p>{triggerWords(rule, locationName)}</p>
      {rule.stopped && (
        <p className="error" role="alert">
          {t.stoppedWhy(rule.stopped.message)}
        </p>
      )}
      {rule.trigger.type === 'event' && <DryRun rule={rule} />}
      <Runs rule={rule} />
      {shop.can('automations:write') && (
        <>
          <Editor rule={rule} />
          <Delete rule={rule} />
        </>
      )}
    </>
  )
}

function Editor({ rule }: { rule?: Automation }) {
  const queries = useQueryClient()
  const navigate = useNavigate()
  const catalog = useCatalog()
  const [saved, setSaved] = useState(false)
  const save = useMutation({
    mutationFn: (body: RuleBody) =>
      rule
        ? unwrap(
            api().PATCH('/api/v1/automations/{id}', {
              params: { path: { id: rule.id } },
              body: { ...body, version: rule.version },
            }),
          )
        : unwrap(api().POST('/api/v1/automations', { body })),
    onSuccess: (answer) => {
      queries.invalidateQueries({ queryKey: ['automations'] })
      queries.setQueryData(['automation', answer.data.id], answer)
      if (rule) setSaved(true)
      else navigate({ to: '/automations/$automationId', params: { automationId: answer.data.id } })
    },
  })
  if (catalog.error) return <ErrorNote error={catalog.error} />
  if (!catalog.data) return <p aria-busy="true">{strings.common.loading}</p>
  return (
    <section aria-labelledby="rule-h">
      <h2 id="rule-h">{rule ? t.change : t.make}</h2>
      {saved && <DoneNote>{t.saved}</DoneNote>}
      <RuleForm
        // A saved version starts the form again from what the API kept.
        key={rule?.version ?? 'new'}
        catalog={catalog.data.data}
        initial={rule ? draftOf(rule) : emptyDraft()}
        submitLabel={rule ? t.saveChanges : t.create}
        busy={save.isPending}
        error={save.error}
        onSubmit={(body) => {
          setSaved(false)
          save.mutate(body)
        }}
      />
    </section>
  )
}

/** Tries the saved rule against sample data: which of its actions would run, or that it would not. Stores nothing. */
function DryRun({ rule }: { rule: Automation }) {
  const catalog = useCatalog()
  const event = rule.trigger.type === 'event' ? rule.trigger.event : ''
  const trigger = catalog.data?.data.triggers.find((c) => c.event === event)
  const [data, setData] = useState<string | null>(null)
  const [badJson, setBadJson] = useState('')
  const sample = data ?? JSON.stringify(sampleData(trigger), null, 2)
  const dryRun = useMutation({
    mutationFn: (payload: Record<string, unknown>) =>
      unwrap(
        api().POST('/api/v1/automations/trigger', {
          body: { event, data: payload, automation_id: rule.id, dry_run: true },
        }),
      ),
  })
  const runs = dryRun.data?.data.runs
  return (
    <section aria-labelledby="try-h">
      <h2 id="try-h">{t.tryIt}</h2>
      <form
        className="panel"
        aria-labelledby="try-h"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          try {
            const parsed: unknown = JSON.parse(sample)
            if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
            setBadJson('')
            dryRun.mutate(parsed as Record<string, unknown>)
          } catch {
            setBadJson(t.notJson)
          }
        }}
      >
        <TextAreaField
          label={t.sample(strings.common.eventWords(event))}
          hint={t.sampleHint}
          rows={10}
          spellCheck={false}
          value={sample}
          error={badJson || undefined}
          onChange={(e) => setData(e.target.value)}
        />
        <button type="submit" disabled={dryRun.isPending}>
          {t.tryButton}
        </button>
      </form>
      <ErrorNote error={dryRun.error} />
      {runs && (
        <div role="status">
          {runs.length === 0 ? (
            <p>{rule.enabled ? t.wouldNotRun : t.wouldNotRunOff}</p>
          ) : (
            <>
              <p>{t.wouldRun}</p>
              <ol>
                {runs[0].steps.map((s) => (
                  <li key={s.position}>{t.actionNames[s.type as keyof typeof t.actionNames] ?? s.type}</li>
                ))}
              </ol>
            </>
          )}
        </div>
      )}
    </section>
  )
}

/** The rule's runs, each with its steps' outcome; a failed run is resumed from the step that failed. */
function Runs({ rule }: { rule: Automation }) {
  const pager = useCursor(rule.id)
  const runs = useQuery({
    queryKey: ['automation-runs', rule.id, pager.cursor],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/automations/{id}/runs', {
          params: { path: { id: rule.id }, query: { limit: 20, cursor: pager.cursor } },
        }),
      ),
  })
  return (
    <section aria-labelledby="runs-h">
      <h2 id="runs-h">{t.runs}</h2>
      <ErrorNote error={runs.error} />
      {runs.data &&
        (runs.data.data.length === 0 ? (
          <Empty>{t.noRuns}</Empty>
        ) : (
          <ul className="plain">
            {runs.data.data.map((r) => (
              <RunRow key={r.id ?? r.created_at} run={r} />
            ))}
          </ul>
        ))}
      <Pager pager={pager} nextCursor={runs.data?.pagination.nextCursor} />
    </section>
  )
}

function RunRow({ run }: { run: Run }) {
  const shop = useShop()
  const queries = useQueryClient()
  const retry = useMutation({
    mutationFn: (runId: string) =>
      unwrap(api().POST('/api/v1/automations/runs/{runId}/retry', { params: { path: { runId } } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['automation-runs', run.automation_id] }),
  })
  return (
    <li>
      <details>
        <summary>
          {t.runSummary(
            shop.fmt.dateTime(run.created_at),
            strings.common.eventWords(run.event),
            t.runStatuses[run.status],
          )}
          {run.manual && ` · ${t.manual}`}
        </summary>
        {run.error && <p className="error">{run.error}</p>}
        <ol>
          {run.steps.map((s) => (
            <li key={s.position}>
              {t.actionNames[s.type as keyof typeof t.actionNames] ?? s.type}: {t.runStatuses[s.status]}
              {s.attempts > 1 && ` (${t.attempts(s.attempts)})`}
              {s.error && <span className="muted"> · {s.error}</span>}
            </li>
          ))}
        </ol>
        {run.status === 'failed' && run.id && shop.can('automations:write') && (
          <>
            <button type="button" disabled={retry.isPending} onClick={() => run.id && retry.mutate(run.id)}>
              {t.retry}
            </button>
            <ErrorNote error={retry.error} />
          </>
        )}
      </details>
    </li>
  )
}

function Delete({ rule }: { rule: Automation }) {
  const navigate = useNavigate()
  const queries = useQueryClient()
  const [asking, setAsking] = useState(false)
  const remove = useMutation({
    mutationFn: () => unwrap(api().DELETE('/api/v1/automations/{id}', { params: { path: { id: rule.id } } })),
    onSuccess: () => {
      queries.invalidateQueries({ queryKey: ['automations'] })
      navigate({ to: '/automations' })
    },
  })
  return (
    <section aria-labelledby="delete-h">
      <h2 id="delete-h">{t.deleteHeading}</h2>
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {t.delete(rule.name)}
      </button>
      <Confirm
        open={asking}
        title={t.deleteTitle(rule.name)}
        action={t.deleteAction}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setAsking(false)}
      >
        <p>{t.deleteWhat}</p>
        <ErrorNote error={remove.error} />
      </Confirm>
    </section>
  )
}

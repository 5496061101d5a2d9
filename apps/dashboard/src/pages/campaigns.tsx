import { type components, unwrap } from '@opentill/client'
import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { api } from '../api.ts'
import { SelectField } from '../parts/field.tsx'
import { Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.campaigns
export type Campaign = components['schemas']['Campaign']
const STATUSES = ['draft', 'scheduled', 'active', 'paused', 'ended'] as const
type Status = (typeof STATUSES)[number]

export interface CampaignsSearch {
  status?: string
}

/** Campaigns: every promotion by status; each opens its editor, preview, vouchers and results. */
export function CampaignsPage() {
  const shop = useShop()
  const search = useSearch({ from: '/campaigns' })
  const navigate = useNavigate({ from: '/campaigns' })
  const status = STATUSES.includes(search.status as Status) ? (search.status as Status) : undefined
  const pager = useCursor(status ?? '')
  const campaigns = useQuery({
    queryKey: ['campaigns', status, pager.cursor],
    queryFn: () =>
      unwrap(api().GET('/api/v1/campaigns', { params: { query: { status, limit: 25, cursor: pager.cursor } } })),
  })
  return (
    <>
      <Title text={t.title}>
        {shop.can('campaigns:write') && (
          <Link className="button primary" to="/campaigns/$campaignId" params={{ campaignId: 'new' }}>
            {t.add}
          </Link>
        )}
      </Title>
      <div className="filters">
        <SelectField
          label={t.status}
          value={status ?? ''}
          onChange={(e) => navigate({ search: { status: e.target.value || undefined } })}
        >
          <option value="">{t.anyStatus}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t.statuses[s]}
            </option>
          ))}
        </SelectField>
      </div>
      <ErrorNote error={campaigns.error} />
      {campaigns.data &&
        (campaigns.data.data.length === 0 ? (
          <Empty>{t.noneYet}</Empty>
        ) : (
          <>
            <table className="list">
              <caption className="visually-hidden">{t.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.name}</th>
                  <th scope="col">{t.status}</th>
                  <th scope="col">{t.rule}</th>
                  <th scope="col" className="num">
                    {t.uses}
                  </th>
                </tr>
              </thead>
              <tbody>
                {campaigns.data.data.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <Link to="/campaigns/$campaignId" params={{ campaignId: c.id }}>
                        {c.name}
                      </Link>
                    </td>
                    <td>
                      <span className={`status status-${c.status}`}>{t.statuses[c.status]}</span>
                    </td>
                    <td>{c.rules.map((r) => t.ruleTypes[r.type]).join(', ')}</td>
                    <td className="num">{shop.fmt.number(c.usage_count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={campaigns.data.pagination.nextCursor} />
          </>
        ))}
    </>
  )
}

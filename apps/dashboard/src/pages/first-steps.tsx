import { unwrap } from '@opentill/client'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { api } from '../api.ts'
import { ErrorNote } from '../parts/notes.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.firstSteps

/** A new store's first three steps, each ticked off by what the API holds, shown until all are done. */
export function FirstSteps() {
  const shop = useShop()
  const steps = useQuery({
    queryKey: ['first-steps'],
    queryFn: async () => {
      const [products, taxes, orders] = await Promise.all([
        unwrap(api().GET('/api/v1/products', { params: { query: { limit: 1 } } })),
        unwrap(api().GET('/api/v1/tax-rates', { params: { query: { limit: 1 } } })),
        unwrap(api().GET('/api/v1/orders', { params: { query: { limit: 1 } } })),
      ])
      return { items: products.data.length > 0, tax: taxes.data.length > 0, sale: orders.data.length > 0 }
    },
    enabled: shop.can('settings:write'),
    // Read afresh each time Home opens: a step done on another page shows done here.
    staleTime: 0,
  })
  const done = steps.data
  if (steps.error) return <ErrorNote error={steps.error} />
  if (!done || (done.items && done.tax && done.sale)) return null
  const list = [
    { key: 'items', done: done.items, to: '/items', text: t.items },
    { key: 'tax', done: done.tax, to: '/settings', text: t.tax },
    { key: 'sale', done: done.sale, to: '/sale', text: t.sale },
  ] as const
  return (
    <section className="card" aria-labelledby="first-steps-h">
      <h2 id="first-steps-h">{t.title}</h2>
      <ol>
        {list.map((step) => (
          <li key={step.key}>
            {step.done ? (
              <span>
                <span aria-hidden="true">✓ </span>
                <s>{step.text}</s> <span className="visually-hidden">{t.done}</span>
              </span>
            ) : (
              <Link to={step.to}>{step.text}</Link>
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}

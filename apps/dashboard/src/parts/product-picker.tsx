import { type components, unwrap } from '@opentill/client'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api } from '../api.ts'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import { ErrorNote } from './notes.tsx'

type Product = components['schemas']['Product']

/**
 * Finds an item by name, SKU or barcode and hands it over. A scanner types the barcode and Enter: when the search
 * finds exactly one item, Enter picks it, so scanning rings items up one after another.
 */
export function ProductPicker({ label, onPick }: { label: string; onPick: (product: Product) => void }) {
  const shop = useShop()
  const id = useId()
  const queries = useQueryClient()
  const [text, setText] = useState('')
  const search = (q: string) => ({
    queryKey: ['products', 'pick', q],
    queryFn: () => unwrap(api().GET('/api/v1/products', { params: { query: { q, is_active: true, limit: 8 } } })),
  })
  const found = useQuery({ ...search(text), enabled: text.trim().length > 0 })
  const results = found.data?.data ?? []
  const pick = (p: Product) => {
    onPick(p)
    setText('')
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="search"
        autoComplete="off"
        value={text}
        aria-describedby={`${id}-results`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={async (e) => {
          if (e.key !== 'Enter' || text.trim() === '') return
          e.preventDefault()
          // A scanner's Enter comes before the search answers: wait for the answer to this very text.
          const answer = await queries.fetchQuery(search(text))
          if (answer.data.length === 1) pick(answer.data[0])
        }}
      />
      <p className="visually-hidden" aria-live="polite">
        {found.isSuccess && text.trim() !== '' ? strings.common.found(results.length) : ''}
      </p>
      <ErrorNote error={found.error} />
      <div id={`${id}-results`}>
        {text.trim() !== '' && found.isSuccess && results.length === 0 && (
          <p className="empty">{strings.common.nothingFound(text)}</p>
        )}
        {results.length > 0 && (
          <ul className="results">
            {results.map((p) => (
              <li key={p.id}>
                <button type="button" onClick={() => pick(p)}>
                  <span>{p.name}</span> <span className="muted">{p.sku}</span>{' '}
                  <span>{shop.fmt.money(p.base_price)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}

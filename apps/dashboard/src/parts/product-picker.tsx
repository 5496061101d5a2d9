import { type components, unwrap } from '@opentill/client'
import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api } from '../api.ts'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

type Product = components['schemas']['Product']

/**
 * Finds an item by name, SKU or barcode and hands it over. A scanner types the barcode and Enter: when the search
 * finds exactly one item, Enter picks it, so scanning rings items up one after another.
 */
export function ProductPicker({ label, onPick }: { label: string; onPick: (product: Product) => void }) {
  const shop = useShop()
  const id = useId()
  const [text, setText] = useState('')
  const found = useQuery({
    queryKey: ['products', 'pick', text],
    queryFn: () => unwrap(api().GET('/api/v1/products', { params: { query: { q: text, is_active: true, limit: 8 } } })),
    enabled: text.trim().length > 0,
  })
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
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            if (results.length === 1) pick(results[0])
          }
        }}
      />
      <div id={`${id}-results`} aria-live="polite">
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

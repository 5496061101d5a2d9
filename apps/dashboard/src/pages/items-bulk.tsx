import { type components, fromMinor, OpenTillProblem, type operations, toMinor, unwrap } from '@opentill/client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { parse } from 'csv-parse/browser/esm/sync'
import { stringify } from 'csv-stringify/browser/esm/sync'
import { useId, useState } from 'react'
import { api, numberOf } from '../api.ts'
import { Confirm } from '../parts/confirm.tsx'
import { downloadCsv } from '../parts/download.ts'
import { Field, SelectField } from '../parts/field.tsx'
import { DoneNote, ErrorNote } from '../parts/notes.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.items
type Product = components['schemas']['Product']
type BatchItem = operations['batchProducts']['requestBody']['content']['application/json']['products'][number]
/** What one call of the batch endpoint takes. */
const BATCH = 500

const MODES = ['set', 'raise_percent', 'lower_percent', 'raise_amount', 'lower_amount'] as const
type Mode = (typeof MODES)[number]

/** A new price in minor units: percentages to a hundredth, rounded half up to the currency's unit. */
function priced(old: bigint, mode: Mode, value: number, currency: string): bigint {
  if (mode === 'set') return toMinor(value, currency)
  if (mode === 'raise_amount') return old + toMinor(value, currency)
  if (mode === 'lower_amount') return old - toMinor(value, currency)
  const hundredths = BigInt(Math.round(value * 100))
  const factor = mode === 'raise_percent' ? 10_000n + hundredths : 10_000n - hundredths
  return (old * factor + 5_000n) / 10_000n
}

/** The prices of the chosen items changed at once: one call, all or none. */
export function PriceChange({ chosen, onDone }: { chosen: Product[]; onDone: (message: string) => void }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [mode, setMode] = useState<Mode>('raise_percent')
  const [value, setValue] = useState('')
  const amount = numberOf(value)
  const preview = Number.isFinite(amount)
    ? chosen.map((p) => {
        try {
          return {
            product: p,
            price: fromMinor(priced(toMinor(p.base_price, shop.currency), mode, amount, shop.currency), shop.currency),
          }
        } catch {
          return { product: p, price: Number.NaN }
        }
      })
    : []
  const apply = useMutation({
    mutationFn: () =>
      unwrap(
        api().POST('/api/v1/products/batch', {
          // Each from the version it was priced from: a price changed meanwhile is a 409, not overwritten.
          body: {
            products: preview.map((p) => ({ sku: p.product.sku, base_price: p.price, version: p.product.version })),
          },
        }),
      ),
    onSuccess: (answer) => {
      queries.invalidateQueries({ queryKey: ['products'] })
      onDone(t.pricesChanged(answer.data.updated))
    },
  })
  return (
    <form
      className="panel"
      aria-labelledby="prices-h"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        apply.mutate()
      }}
    >
      <h2 id="prices-h">{t.changePrices(chosen.length)}</h2>
      <div className="inline">
        <SelectField label={t.how} value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
          {MODES.map((m) => (
            <option key={m} value={m}>
              {t.modes[m]}
            </option>
          ))}
        </SelectField>
        <Field
          label={mode.endsWith('percent') ? t.byPercent : t.byAmount(shop.currency)}
          inputMode="decimal"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </div>
      {preview.length > 0 && (
        <ul className="plain">
          {preview.map(({ product, price }) => (
            <li key={product.id} className="row">
              <span>{product.name}</span>
              <span>
                {shop.fmt.money(product.base_price)} →{' '}
                <strong>{Number.isNaN(price) ? '—' : shop.fmt.money(price)}</strong>
              </span>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={apply.error} />
      <button type="submit" className="primary" disabled={preview.length === 0 || apply.isPending}>
        {t.applyPrices(chosen.length)}
      </button>
    </form>
  )
}

const COLUMNS = ['sku', 'name', 'base_price', 'cost', 'barcodes', 'track_inventory', 'is_active'] as const
const yes = (text: string) => /^(true|yes|y|1)$/i.test(text.trim())

/** A cell as it was before the export wrote it as text (a leading ' before =, +, -, @ keeps a formula from running). */
const cellOf = (value: string | undefined) => (value ?? '').trim().replace(/^'(?=[=+\-@])/, '')

/** A CSV row as a batch item: the cells it fills; an empty cell leaves that field as it is. */
function itemOf(raw: Record<string, string>): BatchItem {
  const row = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, cellOf(v)]))
  const item: Record<string, unknown> = { sku: row.sku ?? '' }
  if (row.name) item.name = row.name
  if (row.base_price) item.base_price = numberOf(row.base_price)
  if (row.cost) item.cost = numberOf(row.cost)
  if (row.barcodes) item.barcodes = row.barcodes.split(/\s+/)
  if (row.track_inventory) item.track_inventory = yes(row.track_inventory)
  if (row.is_active) item.is_active = yes(row.is_active)
  return item as BatchItem
}

/** The catalog out to a spreadsheet and back: export every item, import a file in batches of 500. */
export function CsvTools() {
  const shop = useShop()
  const queries = useQueryClient()
  const fileId = useId()
  const [done, setDone] = useState('')
  const [lineErrors, setLineErrors] = useState<string[]>([])
  const exportAll = useMutation({
    mutationFn: async () => {
      const rows: Product[] = []
      let cursor: string | undefined
      do {
        const page = await unwrap(api().GET('/api/v1/products', { params: { query: { limit: 200, cursor } } }))
        rows.push(...page.data)
        cursor = page.pagination.nextCursor ?? undefined
      } while (cursor)
      const text = stringify(
        rows.map((p) => ({
          sku: p.sku,
          name: p.name,
          base_price: shop.fmt.amount(p.base_price),
          cost: p.cost === null ? '' : shop.fmt.amount(p.cost),
          barcodes: p.barcodes.join(' '),
          track_inventory: String(p.track_inventory),
          is_active: String(p.is_active),
        })),
        // A cell a spreadsheet would run as a formula is written as text.
        { header: true, columns: [...COLUMNS], escape_formulas: true },
      )
      downloadCsv(text, 'items.csv')
      return rows.length
    },
    onSuccess: (count) => setDone(t.exported(count)),
  })
  const [chosenFile, setChosenFile] = useState<{ name: string; rows: Record<string, string>[] } | null>(null)
  const read = useMutation({
    mutationFn: async (file: File) => ({
      name: file.name,
      rows: parse(await file.text(), { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[],
    }),
    onSuccess: setChosenFile,
  })
  const importFile = useMutation({
    mutationFn: async (rows: Record<string, string>[]) => {
      setChosenFile(null)
      setLineErrors([])
      let created = 0
      let updated = 0
      for (let start = 0; start < rows.length; start += BATCH) {
        try {
          const answer = await unwrap(
            api().POST('/api/v1/products/batch', {
              body: { products: rows.slice(start, start + BATCH).map(itemOf) },
            }),
          )
          created += answer.data.created
          updated += answer.data.updated
        } catch (error) {
          // The file's line of each field the API refused (line 1 is the header).
          if (error instanceof OpenTillProblem && error.errors.length > 0)
            setLineErrors(
              error.errors.map((e) => {
                const match = /^products\.(\d+)\.(.+)$/.exec(e.field)
                return match
                  ? t.lineError(start + Number(match[1]) + 2, match[2], e.message)
                  : `${e.field}: ${e.message}`
              }),
            )
          // The parts before this one are saved: say so.
          if (start > 0) setDone(t.importedBefore(created, updated, start + 2))
          throw error
        }
      }
      return { created, updated }
    },
    onSuccess: ({ created, updated }) => {
      setDone(t.imported(created, updated))
      queries.invalidateQueries({ queryKey: ['products'] })
    },
  })
  return (
    <details className="panel">
      <summary>{t.csvTools}</summary>
      <p className="muted">{t.csvHelp(COLUMNS.join(', '))}</p>
      {done && <DoneNote>{done}</DoneNote>}
      <div className="actions">
        <button type="button" onClick={() => exportAll.mutate()} disabled={exportAll.isPending}>
          {t.exportCsv}
        </button>
      </div>
      <div className="field">
        <label htmlFor={fileId}>{t.importCsv}</label>
        <input
          id={fileId}
          type="file"
          accept=".csv,text/csv"
          disabled={importFile.isPending}
          onChange={(e) => {
            const file = e.target.files?.[0]
            setDone('')
            if (file) read.mutate(file)
            e.target.value = ''
          }}
        />
      </div>
      {lineErrors.length > 0 ? (
        <div className="error" role="alert">
          <p>{t.importRefused}</p>
          <ul>
            {lineErrors.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : (
        <ErrorNote error={importFile.error ?? exportAll.error ?? read.error} />
      )}
      <Confirm
        open={chosenFile !== null}
        title={t.importTitle(chosenFile?.name ?? '')}
        action={t.importRows(chosenFile?.rows.length ?? 0)}
        busy={importFile.isPending}
        onConfirm={() => chosenFile && importFile.mutate(chosenFile.rows)}
        onCancel={() => setChosenFile(null)}
      >
        <p>{t.importWhat(chosenFile?.rows.length ?? 0)}</p>
      </Confirm>
    </details>
  )
}

import { strings } from '../strings/index.ts'
import { Field } from './field.tsx'

/** A search box and its button: the text, trimmed, goes to `onSearch` when sent. */
export function SearchForm({
  label,
  hint,
  value,
  onSearch,
}: {
  label: string
  hint: string
  value: string
  onSearch: (text: string) => void
}) {
  return (
    <form
      className="inline"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault()
        onSearch(String(new FormData(e.currentTarget).get('q') ?? '').trim())
      }}
    >
      <Field label={label} name="q" type="search" hint={hint} defaultValue={value} />
      <button type="submit">{strings.common.search}</button>
    </form>
  )
}

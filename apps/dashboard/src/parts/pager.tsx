import { useState } from 'react'
import { strings } from '../strings/index.ts'

/**
 * The API's cursors as pages: the cursors of the pages seen so far, to go back as well as on. A new `key` (another
 * search, location or item) starts again at the first page, in the same render, so no call goes out with a cursor
 * of the list before.
 */
export function useCursor(key = '') {
  const [state, setState] = useState<{ key: string; stack: (string | undefined)[] }>({ key, stack: [undefined] })
  const stack = state.key === key ? state.stack : [undefined]
  const setStack = (change: (s: (string | undefined)[]) => (string | undefined)[]) =>
    setState((current) => ({ key, stack: change(current.key === key ? current.stack : [undefined]) }))
  return {
    cursor: stack[stack.length - 1],
    page: stack.length,
    next: (cursor: string) => setStack((s) => [...s, cursor]),
    back: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
  }
}

export function Pager({
  pager,
  nextCursor,
}: {
  pager: ReturnType<typeof useCursor>
  nextCursor: string | null | undefined
}) {
  if (pager.page === 1 && !nextCursor) return null
  return (
    <nav className="pager" aria-label={strings.common.pages}>
      <button type="button" disabled={pager.page === 1} onClick={pager.back}>
        {strings.common.previous}
      </button>
      <span>{strings.common.pageOf(pager.page)}</span>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && pager.next(nextCursor)}>
        {strings.common.next}
      </button>
    </nav>
  )
}

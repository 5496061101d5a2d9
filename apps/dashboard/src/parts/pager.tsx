import { useState } from 'react'
import { strings } from '../strings/index.ts'

/** The API's cursors as pages: the cursors of the pages seen so far, to go back as well as on. */
export function useCursor() {
  const [stack, setStack] = useState<(string | undefined)[]>([undefined])
  return {
    cursor: stack[stack.length - 1],
    page: stack.length,
    next: (cursor: string) => setStack((s) => [...s, cursor]),
    back: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
    reset: () => setStack([undefined]),
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

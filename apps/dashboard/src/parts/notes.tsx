import type { ReactNode } from 'react'
import { problemText } from '../api.ts'

/** A failed call, in words, announced at once. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null
  return (
    <p className="error" role="alert">
      {problemText(error)}
    </p>
  )
}

/** A done action, announced politely. */
export function DoneNote({ children }: { children: ReactNode }) {
  return (
    <p className="notice" role="status">
      {children}
    </p>
  )
}

/** What to do when a list has nothing in it yet. */
export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>
}

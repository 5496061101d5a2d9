import { type ReactNode, useEffect } from 'react'
import { strings } from '../strings/index.ts'

/** The page's heading, and the document's title to match (what a screen reader announces on navigation). */
export function Title({ children, text }: { children?: ReactNode; text: string }) {
  useEffect(() => {
    document.title = `${text} · ${strings.appName}`
  }, [text])
  return (
    <div className="title">
      {/* Focused when a page opens, so a screen reader starts there (layout.tsx). */}
      <h1 tabIndex={-1}>{text}</h1>
      {children}
    </div>
  )
}

import { type ReactNode, useEffect, useId, useRef } from 'react'
import { strings } from '../strings/index.ts'

/**
 * Asks before a destructive action and says what it will do: the native modal dialog (focus kept inside, Escape
 * cancels, the page behind inert).
 */
export function Confirm({
  open,
  title,
  children,
  action,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean
  title: string
  children: ReactNode
  action: string
  busy?: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const d = dialog.current
    if (!d) return
    if (open && !d.open) d.showModal()
    if (!open && d.open) d.close()
  }, [open])
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onCancel={onCancel} onClose={onCancel}>
      <h2 id={titleId}>{title}</h2>
      {open && children}
      <div className="actions">
        <button type="button" onClick={onCancel}>
          {strings.common.cancel}
        </button>
        <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
          {action}
        </button>
      </div>
    </dialog>
  )
}

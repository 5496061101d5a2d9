import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react'

interface FieldProps {
  label: string
  /** The API's message for this field (problem+json `errors`), shown beside it and announced. */
  error?: string
  hint?: string
}

/** What ties a control to its label, hint and error for a screen reader. */
interface Wiring {
  id: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

/** A label, the control `children` draws with its wiring, its hint and the API's error for it. */
function Labelled({ label, error, hint, children }: FieldProps & { children: (wiring: Wiring) => ReactNode }) {
  const id = useId()
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {error && (
        <small id={`${id}-error`} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  )
}

/** A labelled input with its hint and the API's error for it, wired for screen readers. */
export function Field({ label, error, hint, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Labelled label={label} error={error} hint={hint}>
      {(wiring) => <input {...wiring} {...input} />}
    </Labelled>
  )
}

export function SelectField({
  label,
  error,
  hint,
  children,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  return (
    <Labelled label={label} error={error} hint={hint}>
      {(wiring) => (
        <select {...wiring} {...select}>
          {children}
        </select>
      )}
    </Labelled>
  )
}

/** A labelled text area with its hint and the API's error for it, as Field is for an input. */
export function TextAreaField({
  label,
  error,
  hint,
  ...textarea
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Labelled label={label} error={error} hint={hint}>
      {(wiring) => <textarea rows={3} {...wiring} {...textarea} />}
    </Labelled>
  )
}

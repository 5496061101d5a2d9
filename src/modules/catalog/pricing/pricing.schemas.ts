import { type Static, Type } from 'typebox'
import { invalid } from '../../../platform/errors/app-error.ts'
import { Timestamp } from '../../../platform/http/schemas.ts'

/** The validity window price lists and markdowns share: from starts_at (inclusive) to ends_at (exclusive). */
export const Window = {
  starts_at: Type.Union([Timestamp, Type.Null()], { description: 'valid from (inclusive); null: since always' }),
  ends_at: Type.Union([Timestamp, Type.Null()], { description: 'valid until (exclusive); null: open-ended' }),
}

export const WindowFields = {
  starts_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  ends_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
}

/** The window fields of a create or update body; each is optional there. */
type WindowInput = { [K in keyof typeof WindowFields]?: Static<(typeof WindowFields)[K]> }

/** Parses the window fields (undefined stays "not given") and refuses an end that is not after the start. */
export function parseWindow(input: WindowInput, current?: { starts_at: Date | null; ends_at: Date | null }) {
  const toDate = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v))
  const startsAt = toDate(input.starts_at)
  const endsAt = toDate(input.ends_at)
  const start = startsAt === undefined ? (current?.starts_at ?? null) : startsAt
  const end = endsAt === undefined ? (current?.ends_at ?? null) : endsAt
  if (start && end && end.getTime() <= start.getTime())
    throw invalid('ends_at', 'must be after starts_at', 'before_start')
  return { startsAt, endsAt }
}

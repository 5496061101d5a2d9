import { type Static, Type } from 'typebox'
import { PAPERS } from './render-html.ts'
import { TEXT_WIDTHS } from './render-text.ts'

const options = {
  gift: Type.Optional(Type.Boolean({ default: false, description: 'a gift receipt: the items without any amount' })),
  lang: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 20,
      description: "the receipt's language, a BCP 47 tag the server has strings for (en, fr); default en",
    }),
  ),
}

export const ReceiptQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union([Type.Literal('html'), Type.Literal('text'), Type.Literal('pdf')], {
        description: 'html (default; print CSS for the paper), text for thermal printers, or pdf',
      }),
    ),
    width: Type.Optional(
      Type.Union(
        TEXT_WIDTHS.map((w) => Type.Literal(w)),
        { description: 'text: columns per line, 42 or 48 (default 42)' },
      ),
    ),
    paper: Type.Optional(
      Type.Union(
        PAPERS.map((p) => Type.Literal(p)),
        { description: 'html and pdf: an 80 mm roll (default) or an A4 sheet' },
      ),
    ),
    ...options,
  },
  { additionalProperties: false },
)
export type ReceiptQuery = Static<typeof ReceiptQuery>

export const EmailReceiptBody = Type.Object(
  {
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 254,
        description: "where to send it; default the order's customer's e-mail",
      }),
    ),
    ...options,
  },
  { additionalProperties: false },
)
export type EmailReceiptBody = Static<typeof EmailReceiptBody>

export const EmailedReceiptSchema = Type.Object({
  order_id: Type.String(),
  email: Type.String(),
  channel: Type.Union([Type.Literal('email'), Type.Literal('log')], {
    description: 'email: queued for the SMTP server; log: this server has no SMTP_URL, so only its log records it',
  }),
  sent_for_order: Type.Integer({ description: 'receipts e-mailed for this order so far, this one included' }),
})
export type EmailedReceipt = Static<typeof EmailedReceiptSchema>

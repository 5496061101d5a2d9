import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DataOf, errorResponses, IdParams } from '../../platform/http/schemas.ts'
import { ReceiptErrors } from './receipts.errors.ts'
import { EmailedReceiptSchema, EmailReceiptBody, ReceiptQuery } from './receipts.schemas.ts'
import type { ReceiptsService } from './receipts.service.ts'

const tags = ['orders']

/** A receipt page holds no script and loads nothing; its own styles are inline. */
const RECEIPT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'"

export const receiptRoutes: FastifyPluginAsyncTypebox<{ receipts: ReceiptsService }> = async (app, { receipts }) => {
  app.get(
    '/orders/:id/receipt',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'getOrderReceipt',
        tags,
        summary:
          'The receipt of an order: HTML to print (80 mm roll or A4), plain text for thermal printers (42 or 48 columns), or PDF; a gift receipt without prices',
        params: IdParams,
        querystring: ReceiptQuery,
        produces: ['text/html', 'text/plain', 'application/pdf'],
        response: {
          // Text, or the PDF's bytes: sent as they are, never serialized as JSON.
          200: Type.Unsafe<string | Buffer>({ type: 'string', description: 'the receipt, in the format asked for' }),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const receipt = await receipts.render(request.ctx, request.params.id, request.query)
      const extension = receipt.type.startsWith('application/pdf')
        ? 'pdf'
        : receipt.type.startsWith('text/html')
          ? 'html'
          : 'txt'
      return reply
        .type(receipt.type)
        .header('content-security-policy', RECEIPT_CSP)
        .header('content-disposition', `inline; filename="${receipt.filename}.${extension}"`)
        .send(receipt.body)
    },
  )

  app.post(
    '/orders/:id/receipt/email',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'emailOrderReceipt',
        tags,
        summary: `E-mail the receipt of an order (to the address given, or the order's customer); a few per order and a ceiling per org and day`,
        params: IdParams,
        body: Type.Optional(EmailReceiptBody),
        response: { 202: DataOf(EmailedReceiptSchema), ...errorResponses(404, ReceiptErrors.EMAIL_LIMIT) },
      },
    },
    async (request, reply) =>
      reply.code(202).send({ data: await receipts.email(request.ctx, request.params.id, request.body ?? {}) }),
  )
}

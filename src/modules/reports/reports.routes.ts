import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { sendCsv, wantsCsv } from '../../platform/http/csv.ts'
import { ALSO_CSV } from '../../platform/http/openapi-document.ts'
import { DataOf, errorResponses } from '../../platform/http/schemas.ts'
import {
  InventoryReportQuery,
  REPORT_SCHEMAS,
  type Report,
  ReportQuery,
  SalesQuery,
  SnapshotQuery,
  StaffQuery,
} from './reports.schemas.ts'
import type { ReportsService } from './reports.service.ts'

const tags = ['reports']
/** A report's answer: its own named shape (reports.schemas.ts), or the CSV of its rows. */
const responseOf = (shape: string) => ({
  200: DataOf(Type.Ref(shape)),
  // A range the query schema cannot refuse (from after to, over a year) is a 422.
  ...errorResponses(422),
})

function send(
  request: FastifyRequest<{ Querystring: Pick<ReportQuery, 'format'> }>,
  reply: FastifyReply,
  report: Report,
) {
  if (!wantsCsv(request)) return reply.send({ data: report })
  const name = [report.report, report.group_by, report.from, report.to].filter(Boolean).join('-')
  return sendCsv(reply, `${name}.csv`, report.rows)
}

export const reportRoutes: FastifyPluginAsyncTypebox<{ reports: ReportsService }> = async (app, { reports }) => {
  for (const schema of REPORT_SCHEMAS) app.addSchema(schema)
  const ranged = (
    path: string,
    operationId: string,
    shape: string,
    summary: string,
    run: (request: FastifyRequest<{ Querystring: ReportQuery }>) => Promise<Report>,
  ) =>
    app.get(
      path,
      {
        config: { scope: 'reports:read' },
        schema: { operationId, tags, summary, querystring: ReportQuery, response: responseOf(shape), [ALSO_CSV]: true },
      },
      async (request, reply) => send(request, reply, await run(request)),
    )

  app.get(
    '/reports/sales',
    {
      config: { scope: 'reports:read' },
      schema: {
        operationId: 'getSalesReport',
        tags,
        summary:
          'Sales of completed orders by day, week, month, location, product, category or register (payments taken there), over local days; refunds on their own days',
        querystring: SalesQuery,
        response: responseOf('SalesReport'),
        [ALSO_CSV]: true,
      },
    },
    async (request, reply) => send(request, reply, await reports.sales(request.ctx, request.query)),
  )
  app.get(
    '/reports/staff',
    {
      config: { scope: 'reports:read' },
      schema: {
        operationId: 'getStaffReport',
        tags,
        summary:
          'Sales, refunds, voids and discounts by member of staff (group_by=user) or by register, over local days',
        querystring: StaffQuery,
        response: responseOf('StaffReport'),
        [ALSO_CSV]: true,
      },
    },
    async (request, reply) => send(request, reply, await reports.staff(request.ctx, request.query)),
  )
  ranged('/reports/payments', 'getPaymentsReport', 'PaymentsReport', 'Payments by method: captured and refunded', (r) =>
    reports.payments(r.ctx, r.query),
  )
  ranged('/reports/refunds', 'getRefundsReport', 'RefundsReport', 'Refunds by day', (r) =>
    reports.refunds(r.ctx, r.query),
  )
  ranged(
    '/reports/tax',
    'getTaxReport',
    'TaxReport',
    'Tax collected by rate, with the amount it was computed on',
    (r) => reports.tax(r.ctx, r.query),
  )
  ranged(
    '/reports/discounts',
    'getDiscountsReport',
    'DiscountsReport',
    'Discounts by campaign (voided orders left out)',
    (r) => reports.discounts(r.ctx, r.query),
  )

  app.get(
    '/reports/inventory',
    {
      config: { scope: 'reports:read' },
      schema: {
        operationId: 'getInventoryReport',
        tags,
        summary: 'Units on hand now and their value at cost, per product and variant',
        querystring: InventoryReportQuery,
        response: responseOf('InventoryReport'),
        [ALSO_CSV]: true,
      },
    },
    async (request, reply) => send(request, reply, await reports.inventory(request.ctx, request.query)),
  )
  const snapshot = (
    path: string,
    operationId: string,
    shape: string,
    summary: string,
    run: (request: FastifyRequest) => Promise<Report>,
  ) =>
    app.get(
      path,
      {
        config: { scope: 'reports:read' },
        schema: {
          operationId,
          tags,
          summary,
          querystring: SnapshotQuery,
          response: responseOf(shape),
          [ALSO_CSV]: true,
        },
      },
      async (request, reply) => send(request, reply, await run(request)),
    )
  snapshot(
    '/reports/loyalty',
    'getLoyaltyReport',
    'LoyaltyReport',
    'Loyalty points outstanding now, and their value off orders',
    (r) => reports.loyalty(r.ctx),
  )
  snapshot('/reports/gift-cards', 'getGiftCardsReport', 'GiftCardsReport', 'Gift card balances outstanding now', (r) =>
    reports.giftCards(r.ctx),
  )
}

import { newId } from '../../platform/crypto/ids.ts'
import { badRequest, invalid } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { queueMail } from '../../platform/mail/index.ts'
import type { Runtime } from '../../platform/runtime.ts'
import type { CustomersService } from '../customers/index.ts'
import type { LocationsService } from '../locations/index.ts'
import type { LoyaltyService } from '../loyalty/index.ts'
import type { Order } from '../orders/index.ts'
import type { SettingsService } from '../orgs/index.ts'
import { layoutReceipt, type ReceiptData } from './receipt.layout.ts'
import { ReceiptErrors } from './receipts.errors.ts'
import * as repo from './receipts.repo.ts'
import type { EmailedReceipt, EmailReceiptBody, ReceiptQuery } from './receipts.schemas.ts'
import { renderHtml } from './render-html.ts'
import { renderPdf } from './render-pdf.ts'
import { renderText } from './render-text.ts'
import { RECEIPT_LANGUAGES, stringsFor } from './strings.ts'

/** Receipts e-mailed per order, ever, and per org in a day: enough for a customer, too few to send mail at will. */
const EMAILS_PER_ORDER = 3
const EMAILS_PER_ORG_PER_DAY = 500

interface ReceiptsDeps {
  /** The order with its payments (the order-detail flow). */
  orders: { get(ctx: RequestContext, orderId: string): Promise<Order> }
  settings: Pick<SettingsService, 'get'>
  locations: Pick<LocationsService, 'get'>
  customers: Pick<CustomersService, 'get'>
  loyalty: Pick<LoyaltyService, 'summaryOf'>
}

const addressLines = (a: { line1?: string; line2?: string; city?: string; region?: string; postal_code?: string }) =>
  [a.line1, a.line2, [a.city, a.region, a.postal_code].filter(Boolean).join(' ')].filter((l): l is string => !!l)

/**
 * Receipts of orders (docs/commerce.md "Receipts"): read from the order's modules through their indexes, laid out
 * once, and drawn as HTML, text or PDF; e-mailed through the mail outbox, within limits.
 */
export function createReceiptsService(runtime: Pick<Runtime, 'config' | 'secrets' | 'database'>, deps: ReceiptsDeps) {
  async function dataOf(ctx: RequestContext, orderId: string): Promise<ReceiptData> {
    const order = await deps.orders.get(ctx, orderId)
    const [settings, location, member] = await Promise.all([
      deps.settings.get(ctx),
      deps.locations.get(ctx, order.location_id),
      order.customer_id ? deps.loyalty.summaryOf(ctx, order.customer_id) : null,
    ])
    return {
      store: {
        name: settings.name,
        phone: settings.phone,
        address: addressLines(settings.address),
        header: settings.receipt_header,
        footer: settings.receipt_footer,
      },
      location: {
        name: location.name,
        address: [location.address_line1, location.address_line2, location.city].filter(Boolean),
        timezone: location.timezone,
      },
      order,
      pointsBalance: member?.balance ?? null,
    }
  }

  function strings(lang: string | undefined) {
    if (lang !== undefined && !RECEIPT_LANGUAGES.includes(lang)) {
      const message = `has no receipt strings here (available: ${RECEIPT_LANGUAGES.join(', ')})`
      throw badRequest(`lang ${message}`, [{ field: 'lang', message, code: 'invalid_enum' }])
    }
    return stringsFor(lang)
  }

  async function layout(ctx: RequestContext, orderId: string, o: { gift?: boolean; lang?: string }) {
    const { language, t } = strings(o.lang)
    const data = await dataOf(ctx, orderId)
    const gift = o.gift ?? false
    const title = `${data.store.name}: ${t('order', { number: data.order.number })}`
    return { data, language, t, title, blocks: layoutReceipt(data, { language, t, gift }) }
  }

  return {
    /** The receipt in the format asked for, with its content type. */
    async render(
      ctx: RequestContext,
      orderId: string,
      query: ReceiptQuery,
    ): Promise<{ type: string; body: string | Buffer; filename: string }> {
      const { blocks, language, title, data } = await layout(ctx, orderId, query)
      const paper = query.paper ?? '80mm'
      const filename = `receipt-${data.order.number}`
      if (query.format === 'text')
        return { type: 'text/plain; charset=utf-8', body: renderText(blocks, query.width ?? 42), filename }
      if (query.format === 'pdf')
        return { type: 'application/pdf', body: await renderPdf(blocks, { title, paper }), filename }
      return { type: 'text/html; charset=utf-8', body: renderHtml(blocks, { language, title, paper }), filename }
    },

    /**
     * Queues the receipt by e-mail (HTML with a 48-column text part) to the address given or the order's customer,
     * counted against the limits in the same transaction that queues it: at most EMAILS_PER_ORDER per order and
     * EMAILS_PER_ORG_PER_DAY per org, else 429 RECEIPT_EMAIL_LIMIT and nothing is sent.
     */
    async email(ctx: RequestContext, orderId: string, body: EmailReceiptBody): Promise<EmailedReceipt> {
      const { blocks, language, t, title, data } = await layout(ctx, orderId, body)
      const to =
        body.email ?? (data.order.customer_id ? (await deps.customers.get(ctx, data.order.customer_id)).email : null)
      if (!to) throw invalid('email', 'is required: the order has no customer with an e-mail address', 'required')
      const message = {
        to,
        subject: t('email_subject', { store: data.store.name, number: data.order.number }),
        text: renderText(blocks, 48),
        html: renderHtml(blocks, { language, title, paper: '80mm' }),
      }
      const sent = await ctx.db.tx(async (q) => {
        const counted = await repo.lockAndCount(q, ctx.orgId, orderId)
        if (counted.forOrder >= EMAILS_PER_ORDER)
          throw ReceiptErrors.EMAIL_LIMIT(`this order's receipt was already e-mailed ${EMAILS_PER_ORDER} times`)
        if (counted.forOrgToday >= EMAILS_PER_ORG_PER_DAY)
          throw ReceiptErrors.EMAIL_LIMIT(`this org e-mailed ${EMAILS_PER_ORG_PER_DAY} receipts in the last day`, {
            headers: { 'retry-after': '3600' },
          })
        await repo.recordEmail(q, ctx.orgId, newId('rce'), orderId)
        await queueMail(q, runtime.secrets, ctx.orgId, message)
        return counted.forOrder + 1
      })
      return {
        order_id: orderId,
        email: to,
        channel: runtime.config.smtpUrl === undefined ? 'log' : 'email',
        sent_for_order: sent,
      }
    },
  }
}

export type ReceiptsService = ReturnType<typeof createReceiptsService>

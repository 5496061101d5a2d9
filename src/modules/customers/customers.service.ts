import { newId } from '../../platform/crypto/ids.ts'
import { forbidden, invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { toMajor } from '../../platform/money/money.ts'
import { recordAudit } from '../audit/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import { CustomerErrors } from './customers.errors.ts'
import * as repo from './customers.repo.ts'
import type { Customer, CustomerListQuery, UpsertCustomerBody } from './customers.schemas.ts'
import type { CustomerRow } from './customers.tables.ts'

/** A customer's purchases as the orders module counts them (customers never read order tables). */
export interface PurchaseSummary {
  orderCount: number
  totalSpent: bigint
  totalRefunded: bigint
  firstOrderAt: Date | null
  lastOrderAt: Date | null
}

function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    preferences: row.preferences,
    birthday: row.birthday,
    loyalty_member_id: row.loyalty_member_id,
    note: row.note,
    tags: row.tags,
    erased_at: row.erased_at,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

const emailKey = (email: string | null | undefined) => (email ? email.trim().toLowerCase() : null)
/** Phone numbers match on their digits (and a leading +), whatever spacing the till typed. */
const phoneKey = (phone: string | null | undefined) => {
  if (!phone) return null
  const digits = phone.replace(/[^0-9]/g, '')
  return phone.trim().startsWith('+') ? `+${digits}` : digits
}

function toWrite(input: UpsertCustomerBody): repo.CustomerWrite {
  const email = input.email === undefined ? undefined : input.email === null ? null : input.email.trim()
  const phone = input.phone === undefined ? undefined : input.phone === null ? null : input.phone.trim()
  return {
    firstName: input.first_name?.trim(),
    lastName: input.last_name?.trim(),
    email,
    emailKey: email === undefined ? undefined : emailKey(email),
    phone,
    phoneKey: phone === undefined ? undefined : phoneKey(phone),
    preferences: input.preferences,
    birthday: input.birthday,
    loyaltyMemberId: input.loyalty_member_id,
    note: input.note,
    tags: input.tags,
  }
}

const taken = (error: unknown): never => {
  const e = error as { code?: string; constraint?: string }
  if (e?.code === '23505' && (e.constraint === 'customers_org_email' || e.constraint === 'customers_org_phone')) {
    const field = e.constraint === 'customers_org_email' ? 'email' : 'phone'
    throw CustomerErrors.CONTACT_TAKEN(`another customer of this org already has this ${field}`)
  }
  throw error
}

export function createCustomersService(
  orgs: OrgsService,
  /** Whether the caller may erase customers: owners and managers (and apps they approved), never staff. */
  mayErase: (ctx: RequestContext) => Promise<boolean>,
) {
  // Pricing an order asks about its customer twice (does it exist, which tags has it): one read per request.
  const tagsByRequest = new WeakMap<RequestContext, Map<string, Promise<string[] | null>>>()
  const tagsOrNull = (ctx: RequestContext, id: string) => {
    const seen = tagsByRequest.get(ctx) ?? new Map<string, Promise<string[] | null>>()
    tagsByRequest.set(ctx, seen)
    const tags = seen.get(id) ?? ctx.db.read((q) => repo.customerTags(q, ctx.orgId, id))
    seen.set(id, tags)
    return tags
  }

  return {
    /**
     * An erasure's first step (flows/erase-customer.ts erases the rest): every personal field of the customer's
     * row is blanked; answers the erased customer for announceErasure.
     */
    async erase(ctx: RequestContext, id: string): Promise<Customer> {
      if (!(await mayErase(ctx))) throw forbidden('erasing a customer is for owners and managers')
      return ctx.db.tx(async (q) => {
        const row = await repo.erase(q, ctx.orgId, id)
        if (!row) throw notFound('customer')
        return toCustomer(row)
      })
    },

    /** An erasure's last step, once every trace is gone: customer.updated with the blank row, and the audit log. */
    async announceErasure(ctx: RequestContext, customer: Customer): Promise<void> {
      await ctx.db.tx(async (q) => {
        await emitEvent(q, ctx.orgId, 'customer.updated', customer)
        await recordAudit(q, ctx, { action: 'customer.erased', record: { type: 'customer', id: customer.id } })
      })
    },

    async list(ctx: RequestContext, query: CustomerListQuery): Promise<Page<Customer>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listCustomers(q, ctx.orgId, { afterId: afterId ?? null, search: query.q ?? null, limit: query.limit + 1 }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toCustomer)
    },

    /**
     * Create-or-upsert: a customer with the same e-mail (first) or phone gets the given fields; otherwise a new
     * one is created. `created` tells which (201 or 200).
     */
    async upsert(ctx: RequestContext, input: UpsertCustomerBody): Promise<{ customer: Customer; created: boolean }> {
      const w = toWrite(input)
      if (!w.emailKey && !w.phoneKey)
        throw invalid('email', 'or phone is required to create or match a customer', 'required')
      try {
        return await ctx.db.tx(async (q) => {
          // Two rounds at most: an insert that lost a race to the same e-mail or phone matches the winner.
          for (let round = 0; round < 2; round++) {
            const match = await repo.customerByKeys(q, ctx.orgId, w.emailKey ?? null, w.phoneKey ?? null)
            if (match) {
              const updated = await repo.updateCustomer(q, ctx.orgId, match.id, w, undefined)
              const customer = toCustomer(updated!)
              await emitEvent(q, ctx.orgId, 'customer.updated', customer)
              return { customer, created: false }
            }
            const inserted = await repo.insertCustomer(q, ctx.orgId, newId('cus'), w)
            if (inserted) {
              const customer = toCustomer(inserted)
              await emitEvent(q, ctx.orgId, 'customer.created', customer)
              return { customer, created: true }
            }
          }
          throw CustomerErrors.CHANGED_CONCURRENTLY('the customer changed concurrently; retry')
        })
      } catch (error) {
        return taken(error)
      }
    },

    async get(ctx: RequestContext, id: string): Promise<Customer> {
      const row = await ctx.db.read((q) => repo.customerById(q, ctx.orgId, id))
      if (!row) throw notFound('customer')
      return toCustomer(row)
    },

    /** The profile with its purchase history summary, which the orders module counts (flows/customer-profile.ts). */
    async profile(ctx: RequestContext, id: string, s: PurchaseSummary) {
      const customer = await this.get(ctx, id)
      const currency = await orgs.currencyOf(ctx)
      return {
        ...customer,
        purchase_history: {
          order_count: s.orderCount,
          total_spent: toMajor(s.totalSpent, currency),
          total_refunded: toMajor(s.totalRefunded, currency),
          currency,
          first_order_at: s.firstOrderAt,
          last_order_at: s.lastOrderAt,
        },
      }
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: UpsertCustomerBody,
      expectedVersion: number | undefined,
    ): Promise<Customer> {
      const w = toWrite(input)
      try {
        return await ctx.db.tx(async (q) => {
          const current = await repo.customerById(q, ctx.orgId, id, true)
          if (!current) throw notFound('customer')
          // A customer must stay reachable by at least one key.
          const email = w.email === undefined ? current.email : w.email
          const phone = w.phone === undefined ? current.phone : w.phone
          if (!email && !phone)
            throw invalid(
              w.email === null ? 'email' : 'phone',
              'cannot be removed: a customer needs an e-mail or a phone',
              'required',
            )
          const updated = await repo.updateCustomer(q, ctx.orgId, id, w, expectedVersion)
          if (!updated) throw staleVersion(current.version)
          const customer = toCustomer(updated)
          await emitEvent(q, ctx.orgId, 'customer.updated', customer)
          return customer
        })
      } catch (error) {
        return taken(error)
      }
    },

    /**
     * Tags a customer (automations). A tag the customer already has changes nothing and emits nothing; `added`
     * tells which.
     */
    async addTag(ctx: RequestContext, id: string, tag: string): Promise<{ customer: Customer; added: boolean }> {
      return ctx.db.tx(async (q) => {
        const updated = await repo.addTag(q, ctx.orgId, id, tag)
        if (updated) {
          const customer = toCustomer(updated)
          await emitEvent(q, ctx.orgId, 'customer.updated', customer)
          return { customer, added: true }
        }
        const current = await repo.customerById(q, ctx.orgId, id)
        if (!current) throw notFound('customer')
        return { customer: toCustomer(current), added: false }
      })
    },

    /** For loyalty, in its transaction: the member id a customer got on joining. */
    async setLoyaltyMemberId(ctx: RequestContext, id: string, memberId: string): Promise<void> {
      await ctx.db.tx(async (q) => {
        const updated = await repo.setLoyaltyMemberId(q, ctx.orgId, id, memberId)
        // Like any change to a customer, joining a program is told to subscribers.
        if (updated) await emitEvent(q, ctx.orgId, 'customer.updated', toCustomer(updated))
      })
    },

    /** For campaigns' conditions: the customer's tags (none for a customer of another org). */
    async tagsOf(ctx: RequestContext, id: string): Promise<string[]> {
      return (await tagsOrNull(ctx, id)) ?? []
    },

    /** For other modules: a 422 naming `field` unless the customer is one of this org's. */
    async assertExists(ctx: RequestContext, id: string, field: string): Promise<void> {
      if ((await tagsOrNull(ctx, id)) === null)
        throw invalid(field, 'does not name a customer of this org', 'not_found')
    },
  }
}

export type CustomersService = ReturnType<typeof createCustomersService>

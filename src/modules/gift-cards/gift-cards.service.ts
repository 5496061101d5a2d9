import { newId } from '../../platform/crypto/ids.ts'
import { readableCode } from '../../platform/crypto/tokens.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, toPage } from '../../platform/http/pagination.ts'
import { toMajor, toMinor } from '../../platform/money/money.ts'
import { recordAudit } from '../audit/index.ts'
import type { CustomersService } from '../customers/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import { GiftCardErrors } from './gift-cards.errors.ts'
import * as repo from './gift-cards.repo.ts'
import type { GiftCard, IssueGiftCardBody, LedgerQuery, LoadGiftCardBody } from './gift-cards.schemas.ts'
import type { GiftCardRow, LedgerRow } from './gift-cards.tables.ts'

/** 16 random characters (about 79 bits), shown in groups of four. */
const generateCode = () => readableCode(16)

/** A typed code in its stored form, whatever spacing, dashes or case the till used. */
function normalizeCode(code: string): string {
  const chars = code.toUpperCase().replace(/[^A-Z0-9]/g, '')
  return chars.length === 16 ? chars.match(/.{4}/g)!.join('-') : chars
}

function toGiftCard(row: GiftCardRow): GiftCard {
  return {
    id: row.id,
    code: row.code,
    currency: row.currency,
    initial_balance: toMajor(row.initial_balance, row.currency),
    balance: toMajor(row.balance, row.currency),
    status: row.status,
    customer_id: row.customer_id,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function createGiftCardsService(orgs: OrgsService, customers: Pick<CustomersService, 'assertExists'>) {
  async function ledger(
    q: Queryable,
    ctx: RequestContext,
    row: GiftCardRow,
    kind: LedgerRow['kind'],
    amount: bigint,
    reference?: { type: string; id: string },
  ) {
    await repo.insertLedger(q, ctx.orgId, {
      id: newId('gcl'),
      giftCardId: row.id,
      kind,
      amount,
      balanceAfter: BigInt(row.balance),
      reference,
    })
  }

  return {
    async issue(ctx: RequestContext, input: IssueGiftCardBody): Promise<GiftCard> {
      const currency = await orgs.currencyOf(ctx)
      const balance = toMinor(input.initial_balance, currency, 'initial_balance')
      return ctx.db.tx(async (q) => {
        if (input.customer_id) await customers.assertExists(ctx, input.customer_id, 'customer_id')
        // A clash of 79-bit codes is next to impossible; a few retries make it impossible in practice.
        for (let attempt = 0; attempt < 5; attempt++) {
          const row = await repo.insertGiftCard(q, ctx.orgId, {
            id: newId('gc'),
            code: generateCode(),
            currency,
            balance,
            customerId: input.customer_id ?? null,
          })
          if (!row) continue
          await ledger(q, ctx, row, 'issue', balance)
          const card = toGiftCard(row)
          await emitEvent(q, ctx.orgId, 'gift_card.issued', card)
          await recordAudit(q, ctx, {
            action: 'gift_card.issued',
            record: { type: 'gift_card', id: row.id },
            changes: { balance_minor: Number(balance) },
          })
          return card
        }
        throw GiftCardErrors.CODE_UNAVAILABLE('could not allocate a unique gift card code; retry')
      })
    },

    /** For reports: active cards with money left, and the balance outstanding in minor units. */
    async outstanding(ctx: RequestContext): Promise<{ cards: number; balance: bigint }> {
      const row = await ctx.db.read((q) => repo.outstanding(q, ctx.orgId))
      return { cards: Number(row.cards), balance: BigInt(row.balance ?? 0) }
    },

    async get(ctx: RequestContext, id: string): Promise<GiftCard> {
      const row = await ctx.db.read((q) => repo.giftCardById(q, ctx.orgId, id))
      if (!row) throw notFound('gift card')
      return toGiftCard(row)
    },

    async lookup(ctx: RequestContext, code: string): Promise<GiftCard> {
      const row = await ctx.db.read((q) => repo.giftCardByCode(q, ctx.orgId, normalizeCode(code)))
      if (!row) throw notFound('gift card')
      return toGiftCard(row)
    },

    async load(ctx: RequestContext, id: string, input: LoadGiftCardBody): Promise<GiftCard> {
      const currency = await orgs.currencyOf(ctx)
      const amount = toMinor(input.amount, currency, 'amount')
      return ctx.db.tx(async (q) => {
        const current = await repo.giftCardById(q, ctx.orgId, id, true)
        if (!current) throw notFound('gift card')
        if (current.status === 'disabled') throw GiftCardErrors.DISABLED('a disabled gift card cannot be loaded')
        const row = (await repo.credit(q, ctx.orgId, id, amount))!
        await ledger(q, ctx, row, 'load', amount)
        await recordAudit(q, ctx, {
          action: 'gift_card.loaded',
          record: { type: 'gift_card', id },
          changes: {
            amount_minor: Number(amount),
            balance_minor: { from: Number(current.balance), to: Number(row.balance) },
          },
        })
        return toGiftCard(row)
      })
    },

    async disable(ctx: RequestContext, id: string): Promise<GiftCard> {
      return ctx.db.tx(async (q) => {
        const row = await repo.disable(q, ctx.orgId, id)
        if (!row) {
          if (!(await repo.giftCardById(q, ctx.orgId, id))) throw notFound('gift card')
          throw GiftCardErrors.DISABLED('the gift card is already disabled')
        }
        await ledger(q, ctx, row, 'disable', 0n)
        await recordAudit(q, ctx, {
          action: 'gift_card.disabled',
          record: { type: 'gift_card', id },
          changes: { status: { from: 'active', to: 'disabled' }, balance_minor: Number(row.balance) },
        })
        return toGiftCard(row)
      })
    },

    async ledger(ctx: RequestContext, id: string, query: LedgerQuery) {
      const afterId = afterIdOf(query.cursor)
      return ctx.db.read(async (q) => {
        const card = await repo.giftCardById(q, ctx.orgId, id)
        if (!card) throw notFound('gift card')
        const rows = await repo.ledgerOf(q, ctx.orgId, id, afterId ?? null, query.limit + 1)
        return toPage(
          rows,
          query.limit,
          (r) => [r.id],
          (r) => ({
            id: r.id,
            kind: r.kind,
            amount: toMajor(r.amount, card.currency),
            balance_after: toMajor(r.balance_after, card.currency),
            reference_type: r.reference_type,
            reference_id: r.reference_id,
            created_at: r.created_at,
          }),
        )
      })
    },

    /**
     * For payments, inside their transaction: takes `amount` off the card atomically, never below zero
     * (gift_card.redeemed). A card that does not exist is a 422 naming `field`; a disabled, depleted or short one a 409.
     */
    async redeem(
      ctx: RequestContext,
      code: string,
      amount: bigint,
      reference: { type: string; id: string },
      field: string,
    ): Promise<{ giftCardId: string }> {
      return ctx.db.tx(async (q) => {
        const row = await repo.debit(q, ctx.orgId, normalizeCode(code), amount)
        if (!row) {
          const card = await repo.giftCardByCode(q, ctx.orgId, normalizeCode(code))
          if (!card) throw invalid(field, 'does not name a gift card of this org', 'not_found')
          if (card.status !== 'active') throw GiftCardErrors.NOT_ACTIVE(`the gift card is ${card.status}`)
          throw GiftCardErrors.INSUFFICIENT_BALANCE(
            `the gift card balance (${toMajor(card.balance, card.currency)}) is less than the amount`,
          )
        }
        await ledger(q, ctx, row, 'redeem', -amount, reference)
        await emitEvent(q, ctx.orgId, 'gift_card.redeemed', {
          ...toGiftCard(row),
          amount: toMajor(amount, row.currency),
          reference,
        })
        return { giftCardId: row.id }
      })
    },

    /**
     * For a sale a till made offline: takes up to `amount` from the card, what its balance allows (nothing from an
     * unknown, disabled or empty card); the rest stays due on the order. Joins the caller's transaction.
     */
    async redeemUpTo(
      ctx: RequestContext,
      code: string,
      amount: bigint,
      reference: { type: string; id: string },
    ): Promise<{ giftCardId: string; taken: bigint } | null> {
      return ctx.db.tx(async (q) => {
        const row = await repo.debitUpTo(q, ctx.orgId, normalizeCode(code), amount)
        if (!row) return null
        const taken = BigInt(row.taken)
        await ledger(q, ctx, row, 'redeem', -taken, reference)
        await emitEvent(q, ctx.orgId, 'gift_card.redeemed', {
          ...toGiftCard(row),
          amount: toMajor(taken, row.currency),
          reference,
        })
        return { giftCardId: row.id, taken }
      })
    },

    /** For payments: a refunded gift card payment goes back onto the card. */
    async credit(
      ctx: RequestContext,
      giftCardId: string,
      amount: bigint,
      reference: { type: string; id: string },
    ): Promise<void> {
      await ctx.db.tx(async (q) => {
        const row = await repo.credit(q, ctx.orgId, giftCardId, amount)
        if (!row) throw notFound('gift card')
        await ledger(q, ctx, row, 'refund', amount, reference)
      })
    },
  }
}

export type GiftCardsService = ReturnType<typeof createGiftCardsService>

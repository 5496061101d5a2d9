import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { api, fieldErrors, numberOf, problemText } from '../api.ts'
import { Field, SelectField } from '../parts/field.tsx'
import { DoneNote, ErrorNote } from '../parts/notes.tsx'
import { ProductPicker } from '../parts/product-picker.tsx'
import { ReceiptText } from '../parts/receipt.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import { type ChosenCustomer, CustomerChooser, RewardChooser } from './sale-customer.tsx'

const t = strings.sale
type Order = components['schemas']['Order']
type Calculation = components['schemas']['OrderCalculation']
type ModifierGroup = components['schemas']['ModifierGroup']

interface Line {
  key: string
  productId: string
  name: string
  quantity: number
  variantId: string | null
  variants: { id: string; name: string }[]
  /** The product's modifier groups, and the options chosen (its defaults to begin with). */
  groups: ModifierGroup[]
  options: string[]
}

/**
 * New sale, a virtual terminal: items (searched or scanned) with their variants, a customer, a voucher, the
 * discounts `calculate` applies and why; then the order, its payments (cash, card, gift card, or several), a
 * loyalty reward before the first payment, and the receipt.
 */
export function SalePage() {
  const shop = useShop()
  const [locationId, setLocationId] = useState(shop.locations[0]?.id ?? '')
  const [lines, setLines] = useState<Line[]>([])
  const [customer, setCustomer] = useState<ChosenCustomer | null>(null)
  const [voucher, setVoucher] = useState('')
  const [order, setOrder] = useState<Order | null>(null)
  const body = {
    location_id: locationId,
    customer_id: customer?.id ?? null,
    lines: lines.map((l) => ({
      product_id: l.productId,
      variant_id: l.variantId,
      quantity: l.quantity,
      ...(l.groups.length > 0 ? { modifier_option_ids: l.options } : {}),
    })),
    voucher_codes: voucher.trim() ? [voucher.trim()] : undefined,
  }
  const quote = useQuery({
    queryKey: ['calculate', body],
    queryFn: () => unwrap(api().POST('/api/v1/orders/calculate', { body })),
    enabled: lines.length > 0 && locationId !== '' && order === null,
    placeholderData: (previous) => previous,
  })
  const create = useMutation({
    mutationFn: () => unwrap(api().POST('/api/v1/orders', { body })),
    onSuccess: (answer) => setOrder(answer.data),
  })
  // Adding reads the item's variants and choices first; a failure says so rather than dropping the item.
  const add = useMutation({ mutationFn: (product: components['schemas']['Product']) => addProduct(product) })
  const addProduct = async (product: components['schemas']['Product']) => {
    const path = { path: { id: product.id } }
    const [variants, modifiers] = await Promise.all([
      unwrap(api().GET('/api/v1/products/{id}/variants', { params: { ...path, query: { limit: 100 } } })),
      unwrap(api().GET('/api/v1/products/{id}/modifiers', { params: path })),
    ])
    const active = variants.data.filter((v) => v.is_active)
    const groups = modifiers.data
    setLines((current) => {
      // A plain item again is one more of it; one with choices is a line of its own.
      const same = current.find((l) => l.productId === product.id && active.length === 0 && groups.length === 0)
      if (same) return current.map((l) => (l === same ? { ...l, quantity: l.quantity + 1 } : l))
      return [
        ...current,
        {
          key: `${product.id}-${current.length}-${Date.now()}`,
          productId: product.id,
          name: product.name,
          quantity: 1,
          variantId: active[0]?.id ?? null,
          variants: active.map((v) => ({ id: v.id, name: v.name })),
          groups,
          options: groups.flatMap((g) => g.options.filter((o) => o.is_default).map((o) => o.id)),
        },
      ]
    })
  }
  const change = (key: string, patch: Partial<Line>) =>
    setLines((current) => current.map((l) => (l.key === key ? { ...l, ...patch } : l)))
  const startOver = () => {
    setLines([])
    setCustomer(null)
    setVoucher('')
    setOrder(null)
    create.reset()
  }

  if (order) return <Checkout order={order} customer={customer} onOrder={setOrder} onNewSale={startOver} />
  const errors = fieldErrors(create.error ?? quote.error)
  return (
    <>
      <Title text={t.title} />
      <div className="sale">
        <div>
          <SelectField
            label={strings.common.location}
            value={locationId}
            onChange={(e) => setLocationId(e.target.value)}
          >
            {shop.locations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </SelectField>
          <ProductPicker label={t.addItem} onPick={(product) => add.mutate(product)} />
          <ErrorNote error={add.error} />
          <section aria-labelledby="basket-h">
            <h2 id="basket-h">{t.basket}</h2>
            {lines.length === 0 ? (
              <p className="empty">{t.emptyBasket}</p>
            ) : (
              <ul className="plain basket">
                {lines.map((l, i) => (
                  <li key={l.key} className="line">
                    <strong>{l.name}</strong>
                    {l.variants.length > 0 && (
                      <SelectField
                        label={t.variant(l.name)}
                        value={l.variantId ?? ''}
                        onChange={(e) => change(l.key, { variantId: e.target.value })}
                      >
                        {l.variants.map((v) => (
                          <option key={v.id} value={v.id}>
                            {v.name}
                          </option>
                        ))}
                      </SelectField>
                    )}
                    {l.groups.map((g) => (
                      <ModifierChoice
                        key={g.id}
                        name={`${l.key}-${g.id}`}
                        group={g}
                        chosen={l.options}
                        onChange={(options) => change(l.key, { options })}
                      />
                    ))}
                    <div className="stepper">
                      <button
                        type="button"
                        aria-label={t.less(l.name)}
                        onClick={() =>
                          l.quantity > 1
                            ? change(l.key, { quantity: l.quantity - 1 })
                            : setLines((c) => c.filter((x) => x.key !== l.key))
                        }
                      >
                        −
                      </button>
                      <span aria-live="polite">{t.quantityOf(l.quantity)}</span>
                      <button
                        type="button"
                        aria-label={t.more(l.name)}
                        onClick={() => change(l.key, { quantity: l.quantity + 1 })}
                      >
                        +
                      </button>
                      <button
                        type="button"
                        className="link"
                        onClick={() => setLines((c) => c.filter((x) => x.key !== l.key))}
                      >
                        {t.remove(l.name)}
                      </button>
                    </div>
                    {(errors[`lines.${i}.product_id`] || errors[`lines.${i}.quantity`]) && (
                      <small className="field-error">
                        {errors[`lines.${i}.product_id`] ?? errors[`lines.${i}.quantity`]}
                      </small>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <CustomerChooser customer={customer} onChoose={setCustomer} />
          <Field
            label={t.voucher}
            value={voucher}
            autoComplete="off"
            error={errors.voucher_codes ?? errors['voucher_codes.0']}
            onChange={(e) => setVoucher(e.target.value)}
          />
        </div>
        <aside aria-labelledby="quote-h" className="quote">
          <h2 id="quote-h">{t.summary}</h2>
          {quote.data ? <Quote calculation={quote.data.data} /> : <p className="empty">{t.addToSee}</p>}
          {quote.error && !Object.keys(errors).length && <ErrorNote error={quote.error} />}
          <ErrorNote error={create.error} />
          <button
            type="button"
            className="primary wide"
            disabled={lines.length === 0 || create.isPending || quote.isError}
            onClick={() => create.mutate()}
          >
            {quote.data ? t.charge(shop.fmt.money(quote.data.data.total)) : t.chargeNothing}
          </button>
        </aside>
      </div>
    </>
  )
}

/** One modifier group of a line: one choice (radio buttons) or several (checkboxes), its price beside each. */
function ModifierChoice({
  name,
  group,
  chosen,
  onChange,
}: {
  name: string
  group: ModifierGroup
  chosen: string[]
  onChange: (options: string[]) => void
}) {
  const { fmt } = useShop()
  const single = group.max_selections === 1
  const mine = new Set(group.options.map((o) => o.id))
  const others = chosen.filter((id) => !mine.has(id))
  return (
    <fieldset className="modifiers">
      <legend>
        {group.name}
        {group.required && <small className="muted"> {t.required}</small>}
      </legend>
      {single && !group.required && (
        <label className="choice">
          <input
            type="radio"
            name={name}
            checked={!chosen.some((id) => mine.has(id))}
            onChange={() => onChange(others)}
          />
          {t.none}
        </label>
      )}
      {group.options.map((o) => (
        <label key={o.id} className="choice">
          <input
            type={single ? 'radio' : 'checkbox'}
            name={single ? name : undefined}
            checked={chosen.includes(o.id)}
            onChange={(e) =>
              onChange(
                single ? [...others, o.id] : e.target.checked ? [...chosen, o.id] : chosen.filter((id) => id !== o.id),
              )
            }
          />
          {o.name}
          {Number(o.price_adjustment) !== 0 && <small className="muted"> +{fmt.money(o.price_adjustment)}</small>}
        </label>
      ))}
    </fieldset>
  )
}

/** What the sale comes to: each line, every discount with its reason, the campaigns that did not apply and why. */
function Quote({ calculation }: { calculation: Calculation }) {
  const { fmt } = useShop()
  return (
    <>
      <ul className="plain">
        {calculation.lines.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the quote's lines are the basket's, in its order, replaced whole
          <li key={i} className="row">
            <span>
              {l.quantity} × {l.name}
            </span>
            <span>{fmt.money(l.line_total)}</span>
          </li>
        ))}
      </ul>
      {calculation.campaigns.applied.length > 0 && (
        <>
          <h3>{t.discountsApplied}</h3>
          <ul className="plain">
            {calculation.campaigns.applied.map((c) => (
              <li key={`${c.campaign_id}-${c.rule_id}`} className="row">
                <span>
                  {c.name}
                  {c.voucher_code && <small className="muted"> ({c.voucher_code})</small>}
                </span>
                <span>−{fmt.money(c.amount)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {calculation.campaigns.not_applied.length > 0 && (
        <details>
          <summary>{t.notApplied(calculation.campaigns.not_applied.length)}</summary>
          <ul className="plain">
            {calculation.campaigns.not_applied.map((c) => (
              <li key={c.campaign_id}>
                {c.name}: {c.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      <dl className="totals">
        <dt>{strings.order.subtotal}</dt>
        <dd>{fmt.money(calculation.subtotal)}</dd>
        {Number(calculation.discount_total) !== 0 && (
          <>
            <dt>{strings.order.discounts}</dt>
            <dd>−{fmt.money(calculation.discount_total)}</dd>
          </>
        )}
        <dt>{strings.order.tax}</dt>
        <dd>{fmt.money(calculation.tax_total)}</dd>
        <dt>{strings.common.total}</dt>
        <dd>
          <strong>{fmt.money(calculation.total)}</strong>
        </dd>
      </dl>
    </>
  )
}

type Method = 'cash' | 'card' | 'gift_card'

/** Payments until nothing is due (a split is several), a reward before the first, then the receipt. */
function Checkout({
  order,
  customer,
  onOrder,
  onNewSale,
}: {
  order: Order
  customer: ChosenCustomer | null
  onOrder: (order: Order) => void
  onNewSale: () => void
}) {
  const shop = useShop()
  const queries = useQueryClient()
  const [method, setMethod] = useState<Method>('card')
  const [amount, setAmount] = useState(shop.fmt.amount(order.balance_due))
  const [tendered, setTendered] = useState('')
  const [giftCard, setGiftCard] = useState('')
  const [shiftId, setShiftId] = useState('')
  const [last, setLast] = useState('')
  // biome-ignore lint/correctness/useExhaustiveDependencies: what is left to pay is the next payment's default
  useEffect(() => setAmount(shop.fmt.amount(order.balance_due)), [order.balance_due])
  const shifts = useQuery({
    queryKey: ['shifts', 'open'],
    queryFn: () => unwrap(api().GET('/api/v1/shifts', { params: { query: { status: 'open', limit: 100 } } })),
  })
  const here = (shifts.data?.data ?? []).filter((s) => s.location_id === order.location_id)
  // The location's first open shift to begin with, once: "No shift" stays chosen when chosen.
  const defaulted = useRef(false)
  useEffect(() => {
    if (defaulted.current || !here[0]) return
    defaulted.current = true
    setShiftId(here[0].id)
  }, [here])
  // The order as it is after a payment or a reward. Until it is read again no payment is offered, so a payment
  // taken but not yet shown can never be taken twice.
  const refresh = useMutation({
    mutationFn: () => unwrap(api().GET('/api/v1/orders/{id}', { params: { path: { id: order.id } } })),
    onSuccess: (fresh) => {
      onOrder(fresh.data)
      queries.invalidateQueries({ queryKey: ['orders'] })
      queries.invalidateQueries({ queryKey: ['report'] })
    },
  })
  const reload = async () => {
    await refresh.mutateAsync().catch(() => {})
  }
  const stale = refresh.isPending || refresh.isError
  const pay = useMutation({
    mutationFn: () =>
      unwrap(
        api().POST('/api/v1/payments', {
          body: {
            order_id: order.id,
            amount: numberOf(amount),
            method,
            capture: true,
            ...(method === 'card' ? { payment_method_token: 'pm_card_visa' } : {}),
            ...(method === 'gift_card' ? { gift_card_code: giftCard.trim() } : {}),
            ...(method === 'cash'
              ? { cash_tendered: tendered.trim() ? numberOf(tendered) : undefined, shift_id: shiftId || undefined }
              : {}),
          },
        }),
      ),
    onSuccess: async (answer) => {
      const p = answer.data
      setLast(
        p.change_given !== null && Number(p.change_given) > 0
          ? t.paidWithChange(shop.fmt.money(p.amount), shop.fmt.money(p.change_given))
          : t.paid(shop.fmt.money(p.amount)),
      )
      setTendered('')
      setGiftCard('')
      refresh.mutate()
    },
  })
  const errors = fieldErrors(pay.error)
  const done = Number(order.balance_due) <= 0
  // A payment that pays it in full completes the order; one that a reward took to nothing is completed here.
  const complete = useMutation({
    mutationFn: () =>
      unwrap(
        api().PATCH('/api/v1/orders/{id}/status', {
          params: { path: { id: order.id } },
          body: { status: 'completed', version: order.version },
        }),
      ),
    onSuccess: reload,
  })
  const { mutate: completeOrder, isIdle } = complete
  useEffect(() => {
    if (done && order.status === 'open' && isIdle) completeOrder()
  }, [done, order.status, isIdle, completeOrder])
  return (
    <>
      <Title text={done ? t.orderPaid(order.number) : t.orderTitle(order.number)} />
      {last && <DoneNote>{last}</DoneNote>}
      <dl className="totals">
        <dt>{strings.common.total}</dt>
        <dd>{shop.fmt.money(order.total)}</dd>
        <dt>{strings.order.paid}</dt>
        <dd>{shop.fmt.money(order.amount_paid)}</dd>
        <dt>{t.due}</dt>
        <dd>
          <strong>{shop.fmt.money(order.balance_due)}</strong>
        </dd>
      </dl>
      <ErrorNote error={complete.error} />
      {done && order.status !== 'open' ? (
        <SaleDone order={order} onNewSale={onNewSale} />
      ) : (
        <>
          {customer && Number(order.amount_paid) === 0 && (
            <RewardChooser customer={customer} orderId={order.id} onRedeemed={reload} />
          )}
          <form
            className="panel"
            aria-labelledby="pay-h"
            noValidate
            onSubmit={(e) => {
              e.preventDefault()
              pay.mutate()
            }}
          >
            <h2 id="pay-h">{t.takePayment}</h2>
            <fieldset className="methods">
              <legend>{t.method}</legend>
              {(['card', 'cash', 'gift_card'] as const).map((m) => (
                <label key={m} className="choice">
                  <input type="radio" name="method" value={m} checked={method === m} onChange={() => setMethod(m)} />
                  {t.methods[m]}
                </label>
              ))}
            </fieldset>
            <Field
              label={t.amount}
              hint={t.amountHint}
              inputMode="decimal"
              value={amount}
              error={errors.amount}
              onChange={(e) => setAmount(e.target.value)}
            />
            {method === 'card' && <p className="muted">{t.testCard}</p>}
            {method === 'cash' && (
              <>
                <Field
                  label={t.tendered}
                  inputMode="decimal"
                  value={tendered}
                  error={errors.cash_tendered}
                  onChange={(e) => setTendered(e.target.value)}
                />
                <SelectField
                  label={t.shift}
                  value={shiftId}
                  error={errors.shift_id}
                  onChange={(e) => setShiftId(e.target.value)}
                >
                  <option value="">{t.noShift}</option>
                  {here.map((s) => (
                    <option key={s.id} value={s.id}>
                      {t.shiftOf(shop.fmt.dateTime(s.opened_at))}
                    </option>
                  ))}
                </SelectField>
              </>
            )}
            {method === 'gift_card' && (
              <Field
                label={t.giftCardCode}
                value={giftCard}
                autoComplete="off"
                error={errors.gift_card_code}
                onChange={(e) => setGiftCard(e.target.value)}
              />
            )}
            {pay.error && Object.keys(errors).length === 0 && (
              <p className="error" role="alert">
                {problemText(pay.error)}
              </p>
            )}
            {refresh.isError && (
              <div className="error" role="alert">
                <p>{t.notReread}</p>
                <button type="button" onClick={() => refresh.mutate()}>
                  {t.readAgain}
                </button>
              </div>
            )}
            <button type="submit" className="primary wide" disabled={pay.isPending || stale}>
              {t.pay(shop.fmt.money(numberOf(amount) || 0))}
            </button>
          </form>
        </>
      )}
    </>
  )
}

function SaleDone({ order, onNewSale }: { order: Order; onNewSale: () => void }) {
  return (
    <section aria-labelledby="done-h">
      <h2 id="done-h">{t.complete}</h2>
      <figure>
        <figcaption className="visually-hidden">{strings.order.receipt}</figcaption>
        <ReceiptText order={order} />
      </figure>
      <div className="actions">
        <button type="button" className="primary" onClick={onNewSale}>
          {t.newSale}
        </button>
        <Link to="/orders/$orderId" params={{ orderId: order.id }}>
          {t.openOrder(order.number)}
        </Link>
      </div>
    </section>
  )
}

import { type Static, Type } from 'typebox'
import { type Dated, PageQuery, Timestamp } from '../../platform/http/schemas.ts'

/** The stable codes of what the audit log records (docs/people-and-settings.md "Audit log"). */
const AUDIT_ACTIONS = [
  'order.voided',
  'order.discounted',
  'order.refunded',
  'order.synced',
  'product.updated',
  'tax_rate.created',
  'tax_rate.updated',
  'gift_card.issued',
  'gift_card.loaded',
  'gift_card.disabled',
  'loyalty.points_adjusted',
  'user.invited',
  'user.invitation_revoked',
  'user.joined',
  'user.updated',
  'user.deactivated',
  'user.reactivated',
  'user.password_changed',
  'user.password_reset',
  'user.pin_set',
  'user.pin_cleared',
  'user.pin_locked_out',
  'device.paired',
  'device.unpaired',
  'device.locked',
  'device.unlocked',
  'app.registered',
  'app.updated',
  'app.secret_rotated',
  'app.consented',
  'app.disconnected',
  'webhook.secret_rotated',
  'webhook.resumed',
  'webhook.event_replayed',
  'webhook.events_replayed',
  'campaign.created',
  'campaign.updated',
  'campaign.vouchers_issued',
  'automation.created',
  'automation.updated',
  'automation.deleted',
  'settings.updated',
  'customer.erased',
] as const

export type AuditAction = (typeof AUDIT_ACTIONS)[number]

const Action = Type.Enum(AUDIT_ACTIONS, { description: 'what was done, a stable code' })

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String(),
    occurred_at: Timestamp,
    actor: Type.Object(
      {
        kind: Type.Union([Type.Literal('user'), Type.Literal('app'), Type.Literal('system')]),
        user_id: Type.Union([Type.String(), Type.Null()], { description: 'the user who acted or approved the app' }),
        client_id: Type.Union([Type.String(), Type.Null()], {
          description:
            'the OAuth client of an app, `first-party` for the API login and the web app, the device (`dev_…`) for a till',
        }),
      },
      { description: 'who acted' },
    ),
    register_id: Type.Union([Type.String(), Type.Null()], { description: 'the till, for actions taken at one' }),
    action: Action,
    record_type: Type.String({ description: 'the kind of record changed: order, product, user, settings…' }),
    record_id: Type.String(),
    changes: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'the fields that changed, each as {from, to}, or the amounts of the action; ids and values, never personal data',
    }),
    request_id: Type.Union([Type.String(), Type.Null()], { description: 'the X-Request-Id of the change' }),
  },
  { $id: 'AuditEntry' },
)
export type AuditEntry = Dated<Static<typeof AuditEntrySchema>, 'occurred_at'>

export const AuditLogQuery = Type.Object(
  {
    ...PageQuery,
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'entries of this user' })),
    action: Type.Optional(Action),
    record_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'entries about this record' })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'entries at or after this time' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'entries before this time' })),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'csv also with Accept: text/csv' }),
    ),
  },
  { additionalProperties: false },
)
export type AuditLogQuery = Static<typeof AuditLogQuery>

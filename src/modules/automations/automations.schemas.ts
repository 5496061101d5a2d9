import { type Static, Type } from 'typebox'
import { PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Id = Type.String({ minLength: 1, maxLength: 100 })
/** A dot path into the event's data (`customer_id`, `lines.0.product_id`, `lines.*.sku`). */
const Path = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_*]+(\\.[A-Za-z0-9_*]+)*$' })

const EventTrigger = Type.Object(
  {
    type: Type.Literal('event'),
    event: Type.String({ minLength: 1, maxLength: 100, description: 'an event of the catalog (or an alias)' }),
    location_id: Type.Optional(Id),
  },
  { additionalProperties: false, description: "an event; with location_id, only that location's events" },
)

const ScheduleTrigger = Type.Object(
  {
    type: Type.Literal('schedule'),
    cron: Type.String({ minLength: 9, maxLength: 100, description: 'five-field cron, e.g. "0 9 * * *"' }),
    location_id: Type.String({
      minLength: 1,
      maxLength: 100,
      description: "the cron runs in this location's time zone",
    }),
  },
  { additionalProperties: false },
)

const TriggerSchema = Type.Union([EventTrigger, ScheduleTrigger])
export type Trigger = Static<typeof TriggerSchema>

const ConditionSchema = Type.Object(
  {
    path: Path,
    op: Type.Union([
      Type.Literal('eq'),
      Type.Literal('ne'),
      Type.Literal('gt'),
      Type.Literal('gte'),
      Type.Literal('lt'),
      Type.Literal('lte'),
      Type.Literal('in'),
      Type.Literal('contains'),
      Type.Literal('exists'),
    ]),
    value: Type.Optional(Type.Unknown({ description: 'the operand; for in, an array; for exists, true or false' })),
  },
  { additionalProperties: false },
)
export type Condition = Static<typeof ConditionSchema>

const ConditionsSchema = Type.Object(
  {
    match: Type.Union([Type.Literal('all'), Type.Literal('any')]),
    rules: Type.Array(ConditionSchema, { maxItems: 20 }),
  },
  { additionalProperties: false },
)
export type Conditions = Static<typeof ConditionsSchema>

const Action = <T extends string, P extends Parameters<typeof Type.Object>[0]>(
  type: T,
  properties: P,
  description: string,
) => Type.Object({ type: Type.Literal(type), ...properties }, { additionalProperties: false, description })

const ActionSchema = Type.Union([
  Action(
    'tag_customer',
    {
      tag: Type.String({ minLength: 1, maxLength: 50 }),
      customer_path: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          pattern: '^[A-Za-z0-9_*]+(\\.[A-Za-z0-9_*]+)*$',
          description:
            'default: `id` for customer events, `customer_id` for order, lay-by, loyalty and gift card events',
        }),
      ),
    },
    'adds a tag to the customer whose id is at customer_path in the event data',
  ),
  Action(
    'accrue_points',
    {
      points: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
      customer_path: Path,
      reason: Type.String({ minLength: 1, maxLength: 500 }),
    },
    'adds loyalty points to the customer whose id is at customer_path (joining the active program if needed)',
  ),
  Action(
    'issue_voucher',
    { campaign_id: Id, customer_path: Path },
    'a single-use voucher of a campaign for the customer at customer_path; later steps read {{steps.N.voucher_code}}',
  ),
  Action(
    'adjust_inventory',
    {
      product_id: Id,
      variant_id: Type.Optional(Id),
      location_id: Id,
      quantity: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
      // Every reason of POST /inventory/adjust but `count`, which sets a level rather than changing it.
      reason: Type.Union([
        Type.Literal('received'),
        Type.Literal('damaged'),
        Type.Literal('theft'),
        Type.Literal('return'),
        Type.Literal('correction'),
      ]),
    },
    'a stock adjustment, as POST /inventory/adjustments makes',
  ),
  Action(
    'send_webhook',
    { webhook_id: Id },
    "a signed automation.triggered delivery to one of the org's webhook endpoints",
  ),
  Action(
    'send_email',
    {
      to: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
      to_path: Type.Optional(Path),
      subject: Type.String({ minLength: 1, maxLength: 200 }),
      text: Type.String({ minLength: 1, maxLength: 10_000 }),
    },
    'an e-mail to `to`, or to the address at to_path in the event data (SMTP when set, else the log)',
  ),
  Action('wait', { seconds: Type.Integer({ minimum: 1, maximum: 30 * 86_400 }) }, 'a durable pause'),
])
export type Action = Static<typeof ActionSchema>

export const AutomationSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    enabled: Type.Boolean(),
    trigger: TriggerSchema,
    conditions: ConditionsSchema,
    actions: Type.Array(ActionSchema),
    author: Type.Object(
      {
        user_id: Nullable(Type.String({ description: 'the user who saved the rule (a login), or null for an app' })),
        client_id: Type.String({ description: '`first-party` for a login, else the OAuth client_id of the app' }),
        grant_id: Nullable(Type.String({ description: "the app's grant the rule acts under, or null for a login" })),
        scopes: Type.Array(Type.String(), {
          description: 'the scopes the author held when saving; actions run with those the author still holds',
        }),
      },
      { description: 'who last saved the rule: its actions act with their rights, no more' },
    ),
    stopped: Nullable(
      Type.Object(
        {
          code: Type.Union([
            Type.Literal('AUTOMATION_AUTHOR_DEACTIVATED'),
            Type.Literal('AUTOMATION_AUTHOR_REVOKED'),
            Type.Literal('AUTOMATION_AUTHOR_MISSING'),
          ]),
          message: Type.String(),
        },
        {
          description:
            'why the rule starts no run: its author can no longer act for the org (saving it again makes the saver its author); null while it runs',
        },
      ),
    ),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Automation' },
)
export type Automation = Static<typeof AutomationSchema>

const RunStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('running'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
])

const RunStepSchema = Type.Object({
  position: Type.Integer(),
  type: Type.String(),
  status: RunStatus,
  input: Type.Unknown(),
  output: Type.Unknown(),
  error: Nullable(Type.String()),
  attempts: Type.Integer(),
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
})

export const RunSchema = Type.Object(
  {
    id: Nullable(Type.String({ description: 'null for a dry run, which stores nothing' })),
    automation_id: Type.String(),
    status: RunStatus,
    event: Type.String(),
    event_id: Nullable(Type.String()),
    scheduled_for: Nullable(Timestamp),
    data: Type.Unknown({
      description:
        "the event's data, codes masked; null unless the reader holds the scope that reads the event's resource (orders:read for an order, customers:read for a customer…)",
    }),
    depth: Type.Integer(),
    error: Nullable(Type.String()),
    retries: Type.Integer(),
    dry_run: Type.Boolean(),
    manual: Type.Boolean({ description: 'started by hand (POST /automations/trigger), not by an event or schedule' }),
    steps: Type.Array(RunStepSchema),
    created_at: Timestamp,
    started_at: Nullable(Timestamp),
    finished_at: Nullable(Timestamp),
  },
  { $id: 'AutomationRun' },
)
export type AutomationRun = Static<typeof RunSchema>

export const CreateAutomationBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    enabled: Type.Optional(Type.Boolean()),
    trigger: TriggerSchema,
    conditions: Type.Optional(ConditionsSchema),
    actions: Type.Array(ActionSchema, { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
)
export type AutomationInput = Static<typeof CreateAutomationBody>

export const UpdateAutomationBody = Type.Object(
  {
    name: Type.Optional(CreateAutomationBody.properties.name),
    enabled: Type.Optional(Type.Boolean()),
    trigger: Type.Optional(TriggerSchema),
    conditions: Type.Optional(ConditionsSchema),
    actions: Type.Optional(CreateAutomationBody.properties.actions),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
/** The fields of a PATCH; its version goes to the service apart, with If-Match. */
export type AutomationUpdate = Omit<Static<typeof UpdateAutomationBody>, 'version'>

export const AutomationListQuery = Type.Object(PageQuery, { additionalProperties: false })
export type AutomationListQuery = Static<typeof AutomationListQuery>

export const RunListQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(RunStatus) },
  { additionalProperties: false },
)
export type RunListQuery = Static<typeof RunListQuery>

export const RunParams = Type.Object({ runId: Id })

export const TriggerBody = Type.Object(
  {
    event: Type.String({ minLength: 1, maxLength: 100 }),
    data: Type.Record(Type.String(), Type.Unknown()),
    automation_id: Type.Optional(Id),
    dry_run: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type TriggerInput = Static<typeof TriggerBody>

export const TriggerResultSchema = Type.Object({
  event: Type.String(),
  dry_run: Type.Boolean(),
  runs: Type.Array(Type.Ref('AutomationRun')),
})
export type TriggerResult = Static<typeof TriggerResultSchema>

const CatalogPathSchema = Type.Object({
  path: Type.String({ description: 'a dot path into the data, `*` for every element of a list' }),
  type: Type.Union([Type.Literal('string'), Type.Literal('number'), Type.Literal('boolean'), Type.Literal('list')], {
    description: 'list: an array of values, which `contains` tests',
  }),
})
export type CatalogPath = Static<typeof CatalogPathSchema>

const ActionType = Type.Union([
  Type.Literal('tag_customer'),
  Type.Literal('accrue_points'),
  Type.Literal('issue_voucher'),
  Type.Literal('adjust_inventory'),
  Type.Literal('send_webhook'),
  Type.Literal('send_email'),
  Type.Literal('wait'),
])

export const AutomationCatalogSchema = Type.Object(
  {
    triggers: Type.Array(
      Type.Object({
        type: Type.Union([Type.Literal('event'), Type.Literal('schedule')]),
        event: Type.String({ description: 'the event, or `schedule` for a schedule trigger' }),
        aliases: Type.Array(Type.String(), {
          description: 'other names the API takes for the event (a rule saved with one keeps it)',
        }),
        paths: Type.Array(CatalogPathSchema, { description: 'what a condition can test in its data' }),
        any_path: Type.Boolean({ description: 'its data has no fixed shape: conditions may name any path' }),
        customer_path: Nullable(
          Type.String({ description: "where its data names the customer: a tag_customer action's default" }),
        ),
        actions: Type.Array(ActionType, {
          description: 'the actions the caller may give a rule on it (their scopes; an e-mail also reads the data)',
        }),
      }),
      { description: 'every event a rule can start on (automation.triggered cannot), then the schedule' },
    ),
    actions: Type.Array(
      Type.Object({
        type: ActionType,
        scope: Nullable(Type.String({ description: "the scope the rule's author needs for it" })),
        description: Type.String(),
      }),
    ),
  },
  { $id: 'AutomationCatalog' },
)
export type AutomationCatalog = Static<typeof AutomationCatalogSchema>

import { randomInt } from 'node:crypto'
import { newId } from '../../platform/crypto/ids.ts'
import { randomToken, sha256Hex } from '../../platform/crypto/tokens.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { AppError, forbidden, invalid, notFound, unauthorized } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { recordAudit } from '../audit/index.ts'
import { AuthErrors } from './auth.errors.ts'
import * as authRepo from './auth.repo.ts'
import type { LoginSession } from './auth.schemas.ts'
import type { AuthService } from './auth.service.ts'
import type { UserRow } from './auth.tables.ts'
import * as repo from './devices.repo.ts'
import type { Device, PairedDevice, Pairing, TillStaff } from './devices.schemas.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import { assertAcceptablePin } from './pin-policy.ts'
import { TILL_SCOPE } from './scopes.ts'
import type { SessionEnding } from './session-ending.ts'
import { mayManage, roleOfCaller } from './user-roles.ts'

const PAIRING_TTL_S = 10 * 60
/** Wrong PINs of one user on one till before that user is locked there, and for how long (issue 24). */
const USER_PIN_TRIES = 5
const USER_LOCK_S = 15 * 60
/** Wrong PINs in a row on one till, whoever typed them, before the till is locked until a manager unlocks it. */
const DEVICE_PIN_TRIES = 20

/** What a member of staff asks to do that may need a manager's approval. */
export type ApprovalAction = { kind: 'void' | 'refund' } | { kind: 'discount'; percent: number }

export interface ApprovalSettings {
  voids: boolean
  refunds: boolean
  discount_percent_above: number | null
}

const approvalRequired = (detail: string) =>
  AuthErrors.APPROVAL_REQUIRED(detail, {
    errors: [{ field: 'approval', message: detail, code: 'approval_required' }],
  })

const badDevice = () => unauthorized('the device is not paired (or no longer): pair it again')
const wrongPin = () => unauthorized('the PIN is incorrect')

function statusOf(row: repo.DeviceRow): Device['status'] {
  if (row.unpaired_at) return 'unpaired'
  if (!row.paired_at) return 'pending'
  return row.locked_at ? 'locked' : 'paired'
}

function toDevice(row: repo.DeviceRow): Device {
  return {
    id: row.id,
    name: row.name,
    register_id: row.register_id,
    location_id: row.location_id,
    status: statusOf(row),
    paired_at: row.paired_at,
    last_seen_at: row.last_seen_at,
    created_at: row.created_at,
  }
}

/** Tills are managed by owners and managers, and an app only while the user who approved it still is one. */
async function managerOrOwner(q: Queryable, ctx: RequestContext): Promise<void> {
  if ((await roleOfCaller(q, ctx)) === 'staff')
    throw AuthErrors.ROLE_NOT_ALLOWED('tills are managed by managers and owners')
}

/** The audit context of what happens at a till with nobody signed in (pairing, lock-outs): the device acts. */
const tillActor = (device: repo.DeviceRow) => ({
  orgId: device.org_id,
  actor: { kind: 'user' as const, userId: null, clientId: device.id, registerId: device.register_id },
  requestId: '',
})

/**
 * Paired tills and PIN sign-in (docs/people-and-settings.md "Sign-in at the till"): a manager makes a pairing code
 * for a register; the till trades it for a device credential; staff then switch users on it with their PIN.
 */
export function createDevicesService(
  runtime: Runtime,
  deps: {
    auth: AuthService
    sessions: SessionEnding
    /** The register's location, or a 404 naming the register (the registers module). */
    locationOfRegister(ctx: RequestContext, registerId: string): Promise<string>
    /** The store's rules on what staff may not do alone (the settings). */
    approvalSettings(ctx: RequestContext): Promise<ApprovalSettings>
  },
) {
  const { database, config, accessTokens } = runtime

  async function deviceOfToken(deviceToken: string): Promise<repo.DeviceRow> {
    const tokenHash = sha256Hex(deviceToken.trim())
    const orgId = await database.unscoped((q) => repo.orgOfDeviceToken(q, tokenHash))
    const device = orgId ? await database.read(orgId, (q) => repo.deviceByToken(q, orgId, tokenHash)) : undefined
    if (!device || device.unpaired_at) throw badDevice()
    return device
  }

  /**
   * Checks a user's PIN on a till. The attempt is counted before the PIN is checked, so guesses sent at once cannot
   * pass the limits: five wrong for one user lock that user on this till for 15 minutes, twenty wrong in a row lock
   * the till until a manager unlocks it. Answers the user when the PIN is theirs.
   */
  async function rightPin(device: repo.DeviceRow, userId: string, pin: string): Promise<UserRow> {
    const orgId = device.org_id
    if (device.locked_at)
      throw AuthErrors.DEVICE_LOCKED('this till is locked after too many wrong PINs; a manager unlocks it')
    const { attempt, user } = await database.transaction(orgId, async (q) => {
      const attempt = await repo.countAttempt(q, orgId, device.id, userId)
      return { attempt, user: await authRepo.userById(q, orgId, userId) }
    })
    // Guesses beyond the limits are refused without being checked, even those sent before the lock was set.
    if (attempt.device_failures > DEVICE_PIN_TRIES) {
      await database.transaction(orgId, (q) => repo.lockDevice(q, orgId, device.id))
      throw AuthErrors.DEVICE_LOCKED('this till is locked after too many wrong PINs; a manager unlocks it')
    }
    if (attempt.locked_until || attempt.failures > USER_PIN_TRIES) {
      const until = attempt.locked_until?.getTime() ?? Date.now() + USER_LOCK_S * 1000
      if (!attempt.locked_until)
        await database.transaction(orgId, (q) => repo.lockUserOnDevice(q, orgId, device.id, userId, USER_LOCK_S))
      const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000))
      throw AuthErrors.PIN_LOCKED(`too many wrong PINs for this user on this till; retry after ${seconds} s`, {
        headers: { 'retry-after': String(seconds) },
      })
    }
    const right = (await verifyPassword(user?.pin_hash, pin)) && user !== undefined && !user.deactivated
    if (right) {
      await database.transaction(orgId, (q) => repo.clearFailures(q, orgId, device.id, userId))
      return user
    }
    await database.transaction(orgId, async (q) => {
      if (attempt.failures >= USER_PIN_TRIES && user) {
        await repo.lockUserOnDevice(q, orgId, device.id, userId, USER_LOCK_S)
        await recordAudit(q, tillActor(device), {
          action: 'user.pin_locked_out',
          record: { type: 'user', id: userId },
          changes: { device_id: device.id, failures: attempt.failures, locked_for_s: USER_LOCK_S },
        })
      }
      if (attempt.device_failures >= DEVICE_PIN_TRIES) {
        await repo.lockDevice(q, orgId, device.id)
        await recordAudit(q, tillActor(device), {
          action: 'device.locked',
          record: { type: 'device', id: device.id },
          changes: { failures: attempt.device_failures },
        })
      }
    })
    throw wrongPin()
  }

  return {
    /** A pairing code for a register, valid 10 minutes and once; the device waits, pending, until it is used. */
    async createPairing(ctx: RequestContext, registerId: string, name = ''): Promise<Pairing> {
      const locationId = await deps.locationOfRegister(ctx, registerId)
      return ctx.db.tx(async (q) => {
        await managerOrOwner(q, ctx)
        await repo.forgetExpiredPairings(q)
        // Six digits, unique among live codes of every org: a draw that meets a live one draws again.
        for (let attempt = 0; attempt < 10; attempt++) {
          const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
          const device = await repo.insertPendingDevice(q, {
            id: newId('dev'),
            orgId: ctx.orgId,
            registerId,
            locationId,
            name: name.trim(),
            codeHash: sha256Hex(code),
            ttlSeconds: PAIRING_TTL_S,
            createdBy: ctx.actor.userId,
          })
          if (device)
            return { device_id: device.id, register_id: registerId, code, expires_at: device.pairing_expires_at! }
        }
        throw new Error('no free pairing code after 10 draws')
      })
    },

    /** Trades a pairing code for the device credential, once. */
    async pair(code: string): Promise<PairedDevice> {
      const codeHash = sha256Hex(code)
      const orgId = await database.unscoped((q) => repo.orgOfPairingCode(q, codeHash))
      const refused = () =>
        unauthorized('the pairing code is invalid, already used or expired; ask a manager for a new one')
      if (!orgId) throw refused()
      const deviceToken = randomToken('otd')
      const device = await database.transaction(orgId, async (q) => {
        const paired = await repo.pair(q, orgId, codeHash, sha256Hex(deviceToken))
        if (!paired) throw refused()
        await recordAudit(q, tillActor(paired), {
          action: 'device.paired',
          record: { type: 'device', id: paired.id },
          changes: { register_id: paired.register_id, location_id: paired.location_id },
        })
        return paired
      })
      return {
        device_id: device.id,
        device_token: deviceToken,
        org_id: orgId,
        register_id: device.register_id,
        location_id: device.location_id,
      }
    },

    async list(ctx: RequestContext, query: { limit: number; cursor?: string }): Promise<Page<Device>> {
      const rows = await ctx.db.read((q) => repo.listDevices(q, ctx.orgId, afterIdOf(query.cursor), query.limit + 1))
      return toPage(rows, query.limit, (r) => [r.id], toDevice)
    },

    /** Unpairs a device: its credential stops working and every session opened on it ends at once. */
    async unpair(ctx: RequestContext, id: string): Promise<void> {
      const ended = await ctx.db.tx(async (q) => {
        await managerOrOwner(q, ctx)
        const device = await repo.unpair(q, ctx.orgId, id)
        if (!device) throw notFound('device')
        await recordAudit(q, ctx, { action: 'device.unpaired', record: { type: 'device', id } })
        return authRepo.endSessions(
          q,
          ctx.orgId,
          { deviceId: id },
          { reason: 'device unpaired', recentS: config.accessTokenTtlS },
        )
      })
      // The till's own access tokens carry its id as their session.
      await deps.sessions.revokeAccessTokens([...ended, id])
    },

    async unlock(ctx: RequestContext, id: string): Promise<Device> {
      return ctx.db.tx(async (q) => {
        await managerOrOwner(q, ctx)
        const device = await repo.unlock(q, ctx.orgId, id)
        if (!device) throw notFound('device')
        await recordAudit(q, ctx, { action: 'device.unlocked', record: { type: 'device', id } })
        return toDevice(device)
      })
    },

    /**
     * The till's own access token, for the sync endpoints (docs/sync.md): `till:sync` and nothing else, as the
     * device (an app whose client id is the device's id, at its register), under the device's id as its session, so
     * unpairing revokes it at once.
     */
    async deviceAccessToken(deviceToken: string) {
      const device = await deviceOfToken(deviceToken)
      if (device.locked_at)
        throw AuthErrors.DEVICE_LOCKED('this till is locked after too many wrong PINs; a manager unlocks it')
      const token = await accessTokens.sign({
        sub: device.id,
        orgId: device.org_id,
        scopes: [TILL_SCOPE],
        sid: device.id,
        clientId: device.id,
        actorKind: 'app',
        userId: null,
        registerId: device.register_id,
      })
      return {
        access_token: token,
        token_type: 'Bearer' as const,
        expires_in: config.accessTokenTtlS,
        scope: TILL_SCOPE,
      }
    },

    /** The staff list a till carries (docs/sync.md): as the user picker shows it. */
    staffOf: (ctx: RequestContext): Promise<TillStaff[]> => ctx.db.read((q) => repo.tillStaff(q, ctx.orgId)),

    /** The till's user picker: active users, and whether each has a PIN. */
    async staff(deviceToken: string): Promise<TillStaff[]> {
      const device = await deviceOfToken(deviceToken)
      return database.read(device.org_id, (q) => repo.tillStaff(q, device.org_id))
    },

    /** Signs a user in on a paired till with their PIN (`rightPin`'s limits). */
    async signInWithPin(deviceToken: string, userId: string, pin: string): Promise<LoginSession> {
      const device = await deviceOfToken(deviceToken)
      const user = await rightPin(device, userId, pin)
      return deps.auth.signInAtTill(device.org_id, user.id, { deviceId: device.id, registerId: device.register_id })
    },

    /**
     * A manager's (or owner's) PIN typed on the till of the caller's session, approving what a member of staff does
     * there: answers the approver's id. The same counts and lock-outs as a sign-in apply.
     */
    async approverAtTill(ctx: RequestContext, approval: { user_id: string; pin: string }): Promise<string> {
      const device = await ctx.db.read((q) => repo.deviceOfSession(q, ctx.orgId, ctx.sessionId))
      if (!device || device.unpaired_at) throw approvalRequired("a manager's PIN approves at a paired till only")
      // A wrong PIN is the approval's fault, not the caller's credential's: a 422 on the field, never a 401.
      const approver = await rightPin(device, approval.user_id, approval.pin).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 401)
          throw invalid('approval.pin', 'is not the PIN of this user', 'incorrect')
        throw error
      })
      if (approver.role === 'staff') throw approvalRequired('the approver must be a manager or an owner')
      return approver.id
    },

    /**
     * Refuses what a member of staff may not do alone (the store's `manager_approval` settings) unless a manager
     * approved it; owners, managers and apps act on their own authority.
     */
    async assertApproved(ctx: RequestContext, action: ApprovalAction, approverId: string | null): Promise<void> {
      if (approverId || ctx.actor.kind !== 'user' || !ctx.actor.userId) return
      // The store's rules are kept in memory (under the catalog version); the caller's role is read only when they
      // ask for a manager.
      const rules = await deps.approvalSettings(ctx)
      const needed =
        action.kind === 'discount'
          ? rules.discount_percent_above !== null && action.percent > rules.discount_percent_above
          : rules[action.kind === 'void' ? 'voids' : 'refunds']
      if (needed && (await ctx.db.read((q) => roleOfCaller(q, ctx))) === 'staff')
        throw approvalRequired(
          action.kind === 'discount'
            ? `a discount above ${rules.discount_percent_above}% needs a manager's approval`
            : `a ${action.kind} by staff needs a manager's approval`,
        )
    },

    /** The caller sets their own PIN (a person, not an app). */
    async setOwnPin(ctx: RequestContext, pin: string): Promise<void> {
      const userId = ctx.actor.kind === 'user' ? ctx.actor.userId : null
      if (!userId) throw forbidden('only a signed-in user sets their PIN; an app cannot')
      assertAcceptablePin(pin)
      const hash = await hashPassword(pin)
      await ctx.db.tx(async (q) => {
        await repo.setPinHash(q, ctx.orgId, userId, hash)
        await recordAudit(q, ctx, { action: 'user.pin_set', record: { type: 'user', id: userId } })
      })
    },

    /** A manager clears a PIN they may manage (never sets one: the user chooses it). */
    async clearPin(ctx: RequestContext, userId: string): Promise<void> {
      await ctx.db.tx(async (q) => {
        const target = await authRepo.userById(q, ctx.orgId, userId)
        if (!target) throw notFound('user')
        const role = await roleOfCaller(q, ctx)
        if (!mayManage(role, target.role))
          throw AuthErrors.ROLE_NOT_ALLOWED(`a ${role} can clear the PINs of staff only`)
        await repo.setPinHash(q, ctx.orgId, userId, null)
        await recordAudit(q, ctx, { action: 'user.pin_cleared', record: { type: 'user', id: userId } })
      })
    },
  }
}

export type DevicesService = ReturnType<typeof createDevicesService>

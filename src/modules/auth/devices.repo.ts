import { qualified } from '../../platform/db/columns.ts'
import type { Queryable } from '../../platform/db/database.ts'

/** devices (db/migrations/0140_tills_and_pins.sql), with its state as flags. */
export interface DeviceRow {
  id: string
  org_id: string
  register_id: string
  location_id: string
  name: string
  paired_at: Date | null
  unpaired_at: Date | null
  locked_at: Date | null
  failed_pins: number
  last_seen_at: Date | null
  created_at: Date
  pairing_expires_at: Date | null
}

const deviceColumns = `id, org_id, register_id, location_id, name, paired_at, unpaired_at, locked_at, failed_pins,
  last_seen_at, created_at, pairing_expires_at`

export async function forgetExpiredPairings(q: Queryable): Promise<void> {
  await q.query('SELECT devices_forget_expired_pairings()')
}

export async function insertPendingDevice(
  q: Queryable,
  d: {
    id: string
    orgId: string
    registerId: string
    locationId: string
    name: string
    codeHash: string
    ttlSeconds: number
    createdBy: string | null
  },
): Promise<DeviceRow | undefined> {
  const result = await q.query<DeviceRow>(
    `INSERT INTO devices (id, org_id, register_id, location_id, name, pairing_code_hash, pairing_expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7), $8)
     ON CONFLICT (pairing_code_hash) WHERE pairing_code_hash IS NOT NULL DO NOTHING
     RETURNING ${deviceColumns}`,
    [d.id, d.orgId, d.registerId, d.locationId, d.name, d.codeHash, d.ttlSeconds, d.createdBy],
  )
  return result.rows[0]
}

export async function orgOfPairingCode(q: Queryable, codeHash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT device_org_of_pairing_code($1) AS org_id', [codeHash])
  return result.rows[0]?.org_id ?? null
}

export async function orgOfDeviceToken(q: Queryable, tokenHash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT device_org_of_token($1) AS org_id', [tokenHash])
  return result.rows[0]?.org_id ?? null
}

/** Pairs the device that waits with this code (once: the code is cleared), storing its credential's hash. */
export async function pair(
  q: Queryable,
  orgId: string,
  codeHash: string,
  tokenHash: string,
): Promise<DeviceRow | undefined> {
  const result = await q.query<DeviceRow>(
    `UPDATE devices SET token_hash = $3, pairing_code_hash = NULL, paired_at = now(), last_seen_at = now()
     WHERE org_id = $1 AND pairing_code_hash = $2 AND pairing_expires_at > now()
     RETURNING ${deviceColumns}`,
    [orgId, codeHash, tokenHash],
  )
  return result.rows[0]
}

export async function deviceByToken(q: Queryable, orgId: string, tokenHash: string): Promise<DeviceRow | undefined> {
  const result = await q.query<DeviceRow>(
    `SELECT ${deviceColumns} FROM devices WHERE org_id = $1 AND token_hash = $2`,
    [orgId, tokenHash],
  )
  return result.rows[0]
}

export async function listDevices(q: Queryable, orgId: string, afterId: string | null, limit: number) {
  const result = await q.query<DeviceRow>(
    `SELECT ${deviceColumns} FROM devices WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3`,
    [orgId, afterId, limit],
  )
  return result.rows
}

export async function unpair(q: Queryable, orgId: string, id: string): Promise<DeviceRow | undefined> {
  const result = await q.query<DeviceRow>(
    `UPDATE devices SET token_hash = NULL, pairing_code_hash = NULL, unpaired_at = coalesce(unpaired_at, now())
     WHERE org_id = $1 AND id = $2 RETURNING ${deviceColumns}`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function unlock(q: Queryable, orgId: string, id: string): Promise<DeviceRow | undefined> {
  const result = await q.query<DeviceRow>(
    `UPDATE devices SET locked_at = NULL, failed_pins = 0 WHERE org_id = $1 AND id = $2 AND unpaired_at IS NULL
     RETURNING ${deviceColumns}`,
    [orgId, id],
  )
  return result.rows[0]
}

/**
 * Counts a PIN attempt before it is checked, for the user on the device and for the device (so that guesses sent
 * at once are counted at once); a lock that has run out starts the count again. Answers the counts and whether
 * the user is locked there (until when).
 */
export async function countAttempt(
  q: Queryable,
  orgId: string,
  deviceId: string,
  userId: string,
): Promise<{ failures: number; device_failures: number; locked_until: Date | null }> {
  const result = await q.query<{ failures: number; device_failures: number; locked_until: Date | null }>(
    `WITH device AS (
       UPDATE devices SET failed_pins = failed_pins + 1 WHERE org_id = $1 AND id = $2 RETURNING failed_pins
     ), counted AS (
       INSERT INTO pin_failures (org_id, device_id, user_id, failures) VALUES ($1, $2, $3, 1)
       ON CONFLICT (device_id, user_id, org_id) DO UPDATE SET
         failures = CASE WHEN pin_failures.locked_until <= now() THEN 1 ELSE pin_failures.failures + 1 END,
         locked_until = CASE WHEN pin_failures.locked_until <= now() THEN NULL ELSE pin_failures.locked_until END
       RETURNING failures, locked_until
     )
     SELECT counted.failures, device.failed_pins AS device_failures,
            CASE WHEN counted.locked_until > now() THEN counted.locked_until END AS locked_until
     FROM counted, device`,
    [orgId, deviceId, userId],
  )
  return result.rows[0]!
}

/** A right PIN: the user's and the device's counts start again. */
export async function clearFailures(q: Queryable, orgId: string, deviceId: string, userId: string): Promise<void> {
  await q.query('DELETE FROM pin_failures WHERE org_id = $1 AND device_id = $2 AND user_id = $3', [
    orgId,
    deviceId,
    userId,
  ])
  await q.query('UPDATE devices SET failed_pins = 0, last_seen_at = now() WHERE org_id = $1 AND id = $2', [
    orgId,
    deviceId,
  ])
}

export async function lockUserOnDevice(
  q: Queryable,
  orgId: string,
  deviceId: string,
  userId: string,
  seconds: number,
): Promise<void> {
  await q.query(
    `UPDATE pin_failures SET locked_until = now() + make_interval(secs => $4)
     WHERE org_id = $1 AND device_id = $2 AND user_id = $3`,
    [orgId, deviceId, userId, seconds],
  )
}

export async function lockDevice(q: Queryable, orgId: string, deviceId: string): Promise<void> {
  await q.query('UPDATE devices SET locked_at = coalesce(locked_at, now()) WHERE org_id = $1 AND id = $2', [
    orgId,
    deviceId,
  ])
}

export async function setPinHash(q: Queryable, orgId: string, userId: string, hash: string | null): Promise<boolean> {
  const result = await q.query('UPDATE users SET pin_hash = $3, updated_at = now() WHERE org_id = $1 AND id = $2', [
    orgId,
    userId,
    hash,
  ])
  return (result.rowCount ?? 0) > 0
}

/** The active users a till offers to sign in, with whether each has a PIN (never the hash). */
export async function tillStaff(q: Queryable, orgId: string) {
  const result = await q.query<{ id: string; name: string; role: string; has_pin: boolean }>(
    `SELECT id, name, role, pin_hash IS NOT NULL AS has_pin FROM users
     WHERE org_id = $1 AND deactivated_at IS NULL AND person_id IS NOT NULL ORDER BY name, id LIMIT 500`,
    [orgId],
  )
  return result.rows
}

const deviceColumnsOfD = qualified(deviceColumns, 'd')

/** The device a session was opened on (a PIN sign-in), if any. */
export async function deviceOfSession(q: Queryable, orgId: string, sessionId: string): Promise<DeviceRow | undefined> {
  const result = await q.query<DeviceRow>(
    `SELECT ${deviceColumnsOfD} FROM auth_sessions s
     JOIN devices d ON d.org_id = s.org_id AND d.id = s.device_id
     WHERE s.org_id = $1 AND s.id = $2`,
    [orgId, sessionId],
  )
  return result.rows[0]
}

/** Whether the device is still paired, its row share-locked for the rest of the transaction (a PIN session). */
export async function pairedDeviceShared(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const result = await q.query(
    'SELECT 1 FROM devices WHERE org_id = $1 AND id = $2 AND token_hash IS NOT NULL FOR SHARE',
    [orgId, id],
  )
  return (result.rowCount ?? 0) > 0
}

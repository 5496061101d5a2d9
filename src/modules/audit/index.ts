/** The audit log: who did what, written in the transaction of each sensitive change, read by owners and managers. */
export { startAuditRetention } from './audit.jobs.ts'
export { auditRoutes } from './audit.routes.ts'
export {
  actingUser,
  changedFields,
  createAuditService,
  recordAudit,
} from './audit.service.ts'

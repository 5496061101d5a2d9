/** The till's side: the catalog it carries offline (docs/sync.md); above the modules it reads through their indexes. */

export { type ConflictsService, createConflictsService } from './conflicts.service.ts'
export { createOfflineSalesService, type OfflineSalesService } from './sales.service.ts'
export { syncRoutes } from './sync.routes.ts'
export { createSyncService, type SyncService } from './sync.service.ts'

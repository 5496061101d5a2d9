/** The till's side: the catalog it carries offline (docs/sync.md); above the modules it reads through their indexes. */

export { createConflictsService } from './conflicts.service.ts'
export { createOfflineSalesService } from './sales.service.ts'
export { syncRoutes } from './sync.routes.ts'
export { createSyncService } from './sync.service.ts'

/** The till's side: the catalog it carries offline (docs/sync.md); above the modules it reads through their indexes. */
export { syncRoutes } from './sync.routes.ts'
export { createSyncService, type SyncService } from './sync.service.ts'

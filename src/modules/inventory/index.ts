/** Inventory: levels per item and location, the movements ledger, adjustments, transfers and alerts. */

export { InventoryErrors } from './inventory.errors.ts'
export { inventoryRoutes } from './inventory.routes.ts'
export { LevelSchema, TransferSchema } from './inventory.schemas.ts'
export { createInventoryService, type InventoryService } from './inventory.service.ts'

/** Builds the back office unless its build is of the sources as they are now (build-dashboard.mjs). */
export function ensureDashboardBuilt(options?: { force?: boolean }): Promise<void>

/** A table's column list (`id, name, …`) with each column named through `alias`, for a query that joins the table. */
export function qualified(columns: string, alias: string): string {
  return columns
    .split(',')
    .map((c) => `${alias}.${c.trim()}`)
    .join(', ')
}

/** An `ILIKE` pattern matching values that contain `text`: its own wildcards and backslashes escaped. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

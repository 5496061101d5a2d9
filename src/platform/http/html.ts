/** Escaped HTML: every interpolated value is escaped unless it is already `Html` (a fragment built here). */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => entities[c])
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[]

function render(part: Part): string {
  if (part instanceof Html) return part.value
  if (Array.isArray(part)) return part.map(render).join('')
  if (part === null || part === undefined || part === false) return ''
  return escapeHtml(part)
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]
  })
  return new Html(out)
}

import type { Block } from './receipt.layout.ts'

/** The widths thermal printers print at: 42 columns (58 mm paper, or 80 mm in a large font) and 48 (80 mm). */
export const TEXT_WIDTHS = [42, 48] as const

/** Characters, not UTF-16 units: "€" and "×" take one column as printers count them. */
const columns = (text: string) => [...text].length

/** Words wrapped to `width` columns; a word longer than the line is cut. */
function wrap(text: string, width: number): string[] {
  const out: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word
    while (columns(rest) > width) {
      if (line) out.push(line)
      out.push([...rest].slice(0, width).join(''))
      rest = [...rest].slice(width).join('')
      line = ''
    }
    if (!line) line = rest
    else if (columns(line) + 1 + columns(rest) <= width) line += ` ${rest}`
    else {
      out.push(line)
      line = rest
    }
  }
  if (line || out.length === 0) out.push(line)
  return out
}

const center = (text: string, width: number) =>
  wrap(text, width).map((l) => `${' '.repeat(Math.floor((width - columns(l)) / 2))}${l}`.trimEnd())

/** A label on the left and an amount on the right of the last line; the label wraps to leave the amount room. */
function row(left: string, right: string, width: number, indent: boolean): string[] {
  const pad = indent ? '  ' : ''
  const room = width - columns(pad) - (right ? columns(right) + 1 : 0)
  // An amount too wide to share a line with its label goes on a line of its own, right-aligned.
  if (room < 8) return [...row(left, '', width, indent), ...wrap(right, width).map((r) => r.padStart(width))]
  const wrapped = wrap(left, room).map((l) => pad + l)
  const last = wrapped.length - 1
  if (right) wrapped[last] += ' '.repeat(width - columns(wrapped[last]) - columns(right)) + right
  return wrapped
}

/** The receipt as plain text for a thermal printer: no line wider than `width` columns. */
export function renderText(blocks: readonly Block[], width: number): string {
  const out: string[] = []
  for (const b of blocks) {
    if (b.kind === 'rule') out.push('-'.repeat(width))
    else if (b.kind === 'row')
      out.push(...row(b.strong ? b.left.toUpperCase() : b.left, b.right, width, b.indent ?? false))
    else if (b.kind === 'title') out.push(...center(b.text.toUpperCase(), width))
    else out.push(...center(b.text, width))
  }
  return `${out.join('\n')}\n`
}

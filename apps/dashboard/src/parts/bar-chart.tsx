import { useEffect, useRef } from 'react'
import uPlot from 'uplot'

/**
 * Bars drawn with uPlot for a person who would rather look than read; the same figures are always in a table
 * beside it (a canvas says nothing to a screen reader), so the chart itself is hidden from assistive technology.
 */
export function BarChart({
  labels,
  series,
  format,
}: {
  labels: string[]
  series: { label: string; values: number[]; colour: string }[]
  format: (value: number) => string
}) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const target = box.current
    if (!target || labels.length === 0) return
    const bars = uPlot.paths.bars!({ size: [0.7, 48] })
    const width = () => Math.max(280, Math.min(target.clientWidth, 900))
    const chart = new uPlot(
      {
        width: width(),
        height: 220,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          x: { time: false, range: [-0.5, labels.length - 0.5] },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        series: [
          { label: '' },
          ...series.map((s, i) => ({
            label: s.label,
            fill: s.colour,
            stroke: s.colour,
            points: { show: false },
            // Two series stand side by side in each slot, not on top of each other.
            paths: series.length === 1 ? bars : uPlot.paths.bars!({ size: [0.35, 40], align: i === 0 ? -1 : 1 }),
          })),
        ],
        axes: [
          {
            values: (_u, ticks) => ticks.map((i) => (Number.isInteger(i) ? (labels[i] ?? '') : '')),
            gap: 4,
            stroke: '#333',
          },
          { size: 72, values: (_u, ticks) => ticks.map(format), stroke: '#333' },
        ],
      },
      [labels.map((_, i) => i), ...series.map((s) => s.values)],
      target,
    )
    const resize = () => chart.setSize({ width: width(), height: 220 })
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      chart.destroy()
    }
  }, [labels, series, format])
  return (
    <div aria-hidden="true">
      <div className="chart" ref={box} />
      {series.length > 1 && (
        <ul className="legend">
          {series.map((s) => (
            <li key={s.label}>
              <span style={{ background: s.colour }} />
              {s.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

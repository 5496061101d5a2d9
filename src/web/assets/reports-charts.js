// Draws the Reports page's charts with uPlot (served from this origin) from the JSON the page carries.
;(() => {
  const data = JSON.parse(document.getElementById('report-data').textContent)
  const width = () => Math.min(document.querySelector('main').clientWidth, 720)
  const money = (v) => (v == null ? '' : v.toFixed(data.decimals))
  const bars = uPlot.paths.bars({ size: [0.6, 64] })

  /** Every day of the range, a day without sales at zero, so the line shows quiet days too. */
  function everyDay(rows) {
    const total = new Map(rows.map((r) => [r.period, r.total]))
    const days = []
    for (let t = Date.parse(`${data.from}T00:00:00Z`); t <= Date.parse(`${data.to}T00:00:00Z`); t += 86400000) {
      days.push(new Date(t).toISOString().slice(0, 10))
    }
    return { x: days.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000), y: days.map((d) => total.get(d) ?? 0) }
  }

  const fromZero = (_, _min, max) => [0, max > 0 ? max * 1.1 : 1]

  function lineChart(target, title, rows) {
    const { x, y } = everyDay(rows)
    return new uPlot(
      {
        title,
        width: width(),
        height: 260,
        scales: { x: { time: true }, y: { range: fromZero } },
        series: [
          {},
          {
            label: `Sales (${data.currency})`,
            stroke: '#0a5',
            width: 2,
            fill: 'rgba(0,170,85,0.12)',
            value: (_, v) => money(v),
          },
        ],
        axes: [{}, { size: 70, values: (_, ticks) => ticks.map(money) }],
      },
      [x, y],
      target,
    )
  }

  function barChart(target, title, labels, values, colour) {
    // Nothing to compare: the table below says the range is empty.
    if (labels.length === 0) return null
    const x = labels.map((_, i) => i)
    return new uPlot(
      {
        title,
        width: width(),
        height: 240,
        scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: fromZero } },
        series: [
          { value: (_, i) => labels[i] ?? '' },
          {
            label: data.currency,
            fill: colour,
            stroke: colour,
            paths: bars,
            points: { show: false },
            value: (_, v) => money(v),
          },
        ],
        axes: [
          { values: (_, ticks) => ticks.map((i) => (Number.isInteger(i) ? (labels[i] ?? '') : '')), gap: 4 },
          { size: 70, values: (_, ticks) => ticks.map(money) },
        ],
      },
      [x, values],
      target,
    )
  }

  lineChart(document.getElementById('chart-sales'), 'Sales by day', data.salesByDay)
  barChart(
    document.getElementById('chart-payments'),
    'Payments by method',
    data.payments.map((r) => r.method),
    data.payments.map((r) => r.net),
    '#3573b9',
  )
  barChart(
    document.getElementById('chart-products'),
    'Top products',
    data.topProducts.map((r) => r.name),
    data.topProducts.map((r) => r.total),
    '#b96a35',
  )
  document.body.dataset.chartsReady = 'true'
})()

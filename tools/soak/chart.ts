/**
 * The soak's chart, as SVG text written here (no charting dependency): RSS above, heap used below,
 * against minutes since the start of the run; one line per life of an instance, in the
 * instance's colour (a restart breaks the line), and a dashed vertical line at each marker
 * (restarts, the end of the input) with its label.
 */
import type { InstanceSample } from './verdict.js'

export interface ChartMarker {
  readonly atMs: number
  readonly label: string
}

export interface ChartInput {
  /** One line of text each. */
  readonly title: readonly string[]
  readonly samples: readonly InstanceSample[]
  readonly markers: readonly ChartMarker[]
}

const WIDTH = 960
const PANEL_HEIGHT = 260
const LEFT = 70
const RIGHT = 20
const TOP = 90
const GAP = 50
const BOTTOM = 40
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b']
const MiB = 1048576

/** Escapes text for SVG content and attribute values. */
export function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}

/** A step of 1, 2 or 5 times a power of ten that cuts 0..max into at most about `count` parts. */
export function niceStep(max: number, count: number): number {
  if (!(max > 0)) return 1
  const raw = max / count
  const power = 10 ** Math.floor(Math.log10(raw))
  return ([1, 2, 5, 10].find(m => m * power >= raw) ?? 10) * power
}

const fixed = (n: number): string => String(Math.round(n * 10) / 10)

export function svgChart(input: ChartInput): string {
  const instances = [...new Set(input.samples.map(s => s.instance))].sort()
  const colour = (instance: string): string => COLOURS[instances.indexOf(instance) % COLOURS.length]!
  const maxMs = Math.max(60_000, ...input.samples.map(s => s.atMs), ...input.markers.map(m => m.atMs))
  const plotWidth = WIDTH - LEFT - RIGHT
  const x = (ms: number): number => LEFT + (ms / maxMs) * plotWidth
  const height = TOP + 2 * PANEL_HEIGHT + GAP + BOTTOM
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="white"/>`,
    ...input.title.map(
      (line, i) => `<text x="${LEFT}" y="${20 + 17 * i}"${i === 0 ? ' font-size="15" font-weight="bold"' : ''}>${escapeXml(line)}</text>`
    )
  ]
  instances.forEach((instance, i) => {
    const lx = WIDTH - RIGHT - 90 * (instances.length - i)
    parts.push(`<rect x="${lx}" y="${TOP - 22}" width="14" height="4" fill="${colour(instance)}"/>`)
    parts.push(`<text x="${lx + 18}" y="${TOP - 16}">instance ${escapeXml(instance)}</text>`)
  })
  const panels: Array<{ label: string; value: (s: InstanceSample) => number }> = [
    { label: 'RSS (MiB)', value: s => s.rss / MiB },
    { label: 'heap used (MiB)', value: s => s.heapUsed / MiB }
  ]
  panels.forEach((panel, index) => {
    const top = TOP + index * (PANEL_HEIGHT + GAP)
    const bottom = top + PANEL_HEIGHT
    const maxValue = Math.max(1, ...input.samples.map(panel.value)) * 1.1
    const yStep = niceStep(maxValue, 5)
    const yMax = Math.ceil(maxValue / yStep) * yStep
    const y = (value: number): number => bottom - (value / yMax) * PANEL_HEIGHT
    parts.push(`<text x="${LEFT}" y="${top - 8}" font-weight="bold">${escapeXml(panel.label)}</text>`)
    for (let v = 0; v <= yMax + yStep / 2; v += yStep) {
      parts.push(`<line x1="${LEFT}" y1="${fixed(y(v))}" x2="${WIDTH - RIGHT}" y2="${fixed(y(v))}" stroke="#e6e6e6"/>`)
      parts.push(`<text x="${LEFT - 6}" y="${fixed(y(v) + 4)}" text-anchor="end">${fixed(v)}</text>`)
    }
    const xStep = niceStep(maxMs / 60_000, 10)
    for (let minute = 0; minute * 60_000 <= maxMs; minute += xStep) {
      parts.push(
        `<line x1="${fixed(x(minute * 60_000))}" y1="${bottom}" x2="${fixed(x(minute * 60_000))}" y2="${bottom + 4}" stroke="black"/>`
      )
      parts.push(`<text x="${fixed(x(minute * 60_000))}" y="${bottom + 16}" text-anchor="middle">${fixed(minute)}</text>`)
    }
    parts.push(`<rect x="${LEFT}" y="${top}" width="${plotWidth}" height="${PANEL_HEIGHT}" fill="none" stroke="black"/>`)
    for (const marker of input.markers) {
      const mx = fixed(x(marker.atMs))
      parts.push(`<line x1="${mx}" y1="${top}" x2="${mx}" y2="${bottom}" stroke="#555" stroke-dasharray="4 3"/>`)
      if (index === 0)
        parts.push(`<text x="${mx}" y="${top + 12}" transform="rotate(90 ${mx} ${top + 12})" fill="#555">${escapeXml(marker.label)}</text>`)
    }
    for (const line of lines(input.samples)) {
      const points = line.map(s => `${fixed(x(s.atMs))},${fixed(y(panel.value(s)))}`).join(' ')
      parts.push(`<polyline fill="none" stroke="${colour(line[0]!.instance)}" stroke-width="1.5" points="${points}"/>`)
    }
  })
  parts.push(`<text x="${LEFT + plotWidth / 2}" y="${height - 8}" text-anchor="middle">minutes since start</text>`)
  parts.push('</svg>')
  return `${parts.join('\n')}\n`
}

/** The samples of each life, in time order: one polyline each. */
function lines(samples: readonly InstanceSample[]): InstanceSample[][] {
  const byLife = new Map<string, InstanceSample[]>()
  for (const sample of samples) {
    const id = `${sample.instance}/${sample.life}`
    const line = byLife.get(id)
    if (line === undefined) byLife.set(id, [sample])
    else line.push(sample)
  }
  return [...byLife.values()].map(line => line.sort((a, b) => a.atMs - b.atMs))
}

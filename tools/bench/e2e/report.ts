/**
 * The e2e bench's result table: records/s of every contender per round and the median, and the
 * ratios of medians the bench asks for (kstreams / the baseline of its client on the same input,
 * one client / the other, EOS / ALOS).
 */
export interface ContenderResult {
  readonly label: string
  /** records/s of each measured round; NaN for a failed round. */
  readonly rates: readonly number[]
  /** Rounds that timed out (their rate counts the records reached). */
  readonly timedOut: readonly boolean[]
}

export interface Ratio {
  readonly label: string
  readonly numerator: string
  readonly denominator: string
}

export function median(values: readonly number[]): number {
  const sorted = values.filter(v => !Number.isNaN(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const rate = (value: number): string => (Number.isNaN(value) ? 'failed' : Math.round(value).toLocaleString('en-US'))

export function formatReport(title: string, results: readonly ContenderResult[], ratios: readonly Ratio[]): string[] {
  const rounds = Math.max(...results.map(r => r.rates.length))
  const width = Math.max(...results.map(r => r.label.length), ...ratios.map(r => r.label.length)) + 2
  const col = 12
  const header =
    ''.padEnd(width) +
    Array.from({ length: rounds }, (_, i) => `round ${i + 1}`.padStart(col)).join('') +
    (rounds > 1 ? 'median'.padStart(col) : '')
  const lines = [title, header]
  for (const r of results) {
    const cells = r.rates.map((v, i) => `${rate(v)}${r.timedOut[i] === true ? '*' : ''}`.padStart(col)).join('')
    lines.push(r.label.padEnd(width) + cells + (rounds > 1 ? rate(median(r.rates)).padStart(col) : ''))
  }
  if (results.some(r => r.timedOut.some(t => t))) lines.push('* timed out: records reached / time')
  if (ratios.length === 0) return lines
  lines.push('', rounds > 1 ? 'ratios of medians' : 'ratios')
  const byLabel = new Map(results.map(r => [r.label, median(r.rates)]))
  for (const ratio of ratios) {
    const value = byLabel.get(ratio.numerator)! / byLabel.get(ratio.denominator)!
    lines.push(ratio.label.padEnd(width) + (Number.isNaN(value) ? 'n/a' : value.toFixed(3)).padStart(col))
  }
  return lines
}

/**
 * The soak's closing summary, as text: the run, records in and out, restarts, the output check,
 * memory per life (at its start, baseline and end, with growth), and the verdict with its reasons
 * (runFailures in verdict.ts).
 */
import type { KindResult } from './output-check.js'
import type { LifeVerdict } from './verdict.js'

export interface RunFacts {
  readonly description: string
  readonly inputMs: number
  readonly caughtUpMs: number
  readonly clicks: number
  readonly users: number
  readonly restarts: { readonly clean: number; readonly killed: number }
  readonly warmupMs: number
  readonly windowMs: number
  readonly maxGrowth: number
}

const MiB = (bytes: number | undefined): string => (bytes === undefined || Number.isNaN(bytes) ? '-' : (bytes / 1048576).toFixed(0))
const minutes = (ms: number): string => (ms / 60_000).toFixed(1)
const percent = (fraction: number | undefined): string =>
  fraction === undefined ? '-' : `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)}%`
const count = (n: number): string => n.toLocaleString('en-US')

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map(r => r[i]!.length)))
  return rows.map(r => `  ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`.trimEnd())
}

/** `failures`: the run's (runFailures), empty when it passed. */
export function formatSummary(
  facts: RunFacts,
  outputs: readonly KindResult[],
  lives: readonly LifeVerdict[],
  failures: readonly string[]
): string {
  const input = facts.clicks * 2 + facts.users
  const lines = [
    facts.description,
    `input: ${count(input)} records in ${minutes(facts.inputMs)} min (${count(Math.round(input / (facts.inputMs / 1000)))}/s): ` +
      `${count(facts.clicks)} clicks, ${count(facts.clicks)} views, ${count(facts.users)} users`,
    `caught up (lag 0) ${(facts.caughtUpMs / 1000).toFixed(1)} s after the input stopped`,
    `restarts: ${facts.restarts.clean + facts.restarts.killed} (${facts.restarts.clean} clean, ${facts.restarts.killed} SIGKILL)`,
    '',
    'output:',
    ...table([
      ['topic', 'records', 'expected', 'missing', 'over', 'duplicated', 'unexpected'],
      ...outputs.map(o => [
        o.kind,
        count(o.records),
        count(o.expected),
        count(o.missing),
        count(o.over),
        count(o.duplicated),
        count(o.unexpected)
      ])
    ]),
    ...outputs.flatMap(o => o.examples.map(e => `    ${o.kind}: ${e}`)),
    '',
    `memory per life (MiB; warm-up ${minutes(facts.warmupMs)} min, baseline and end: medians of ${minutes(facts.windowMs)} min; ` +
      `fails above +${(facts.maxGrowth * 100).toFixed(0)}%):`,
    ...table([
      [
        'life',
        'min',
        'ended',
        'rss start',
        'base',
        'end',
        'growth',
        'heap start',
        'base',
        'end',
        'growth',
        'handles',
        'iterators',
        'verdict'
      ],
      ...lives.map(l => [
        `${l.life.instance}${l.life.life}`,
        `${minutes(l.life.startMs)}-${minutes(l.life.endMs)}`,
        l.life.ending,
        MiB(l.first?.rss),
        MiB(l.rss?.baseline),
        MiB(l.rss?.end),
        percent(l.rss?.growth),
        MiB(l.first?.heapUsed),
        MiB(l.heap?.baseline),
        MiB(l.heap?.end),
        percent(l.heap?.growth),
        `${l.first?.handles ?? '-'}->${l.last?.handles ?? '-'}`,
        l.iterators === undefined ? '-' : `${l.iterators.baselineMax}->${l.iterators.endMin}`,
        l.notJudged !== undefined ? 'not judged' : l.failures.length > 0 ? 'FAIL' : 'ok'
      ])
    ]),
    ...lives.filter(l => l.notJudged !== undefined).map(l => `    ${l.life.instance}${l.life.life} not judged: ${l.notJudged}`)
  ]
  lines.push('', failures.length === 0 ? 'verdict: PASS' : 'verdict: FAIL', ...failures.map(f => `  - ${f}`))
  return `${lines.join('\n')}\n`
}

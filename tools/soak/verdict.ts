/**
 * The leak verdict: growth of memory within each life of each instance (a life: one process, from
 * its start to its restart or to the end of the input). Restarts give memory back, so growth is
 * only meaningful inside one process. The samples of a life's first `warmupMs` are warm-up (JIT,
 * caches, restoration filling up); the median of the `windowMs` after it is the baseline, the
 * median of the last `windowMs` the end. Medians, so one GC or a burst after a rebalance does not
 * decide. A life fails when RSS or heap grew by more than `maxGrowth`, or when the open RocksDB
 * iterators rose for good (fewest at the end above most in the baseline). A life too short for two
 * separate windows after its warm-up is not judged.
 */
import type { KindResult } from './output-check.js'
import type { MemorySample } from './sampler.js'

/** A sample as the soak keeps it: when (ms from the start of the run) and of which life. */
export interface InstanceSample extends MemorySample {
  readonly atMs: number
  readonly instance: string
  readonly life: number
}

/** One process of an instance: samples from startMs to endMs count (endMs: its end, or the end of the input). */
export interface Life {
  readonly instance: string
  readonly life: number
  readonly startMs: number
  readonly endMs: number
  /** How it ended: 'closed' (clean), 'killed', 'running' (until the end of the run). */
  readonly ending: 'closed' | 'killed' | 'running'
}

export interface GrowthRule {
  readonly warmupMs: number
  readonly windowMs: number
  /** A fraction: 0.1 is 10%. */
  readonly maxGrowth: number
}

export interface Growth {
  readonly baseline: number
  readonly end: number
  /** (end - baseline) / baseline. */
  readonly growth: number
}

export interface LifeVerdict {
  readonly life: Life
  readonly samples: number
  readonly first: InstanceSample | undefined
  readonly last: InstanceSample | undefined
  /** Why the life was not judged; undefined when it was. */
  readonly notJudged: string | undefined
  readonly rss: Growth | undefined
  readonly heap: Growth | undefined
  /** Most open iterators in the baseline window, fewest in the end window. */
  readonly iterators: { readonly baselineMax: number; readonly endMin: number } | undefined
  readonly failures: readonly string[]
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function growth(baseline: readonly number[], end: readonly number[]): Growth {
  const b = median(baseline)
  const e = median(end)
  return { baseline: b, end: e, growth: (e - b) / b }
}

const MIN_WINDOW_SAMPLES = 3
const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`
const MiB = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`

/** Judges one life on its samples (any order; those of other lives are ignored). */
export function judgeLife(life: Life, allSamples: readonly InstanceSample[], rule: GrowthRule): LifeVerdict {
  const samples = allSamples
    .filter(s => s.instance === life.instance && s.life === life.life && s.atMs >= life.startMs && s.atMs <= life.endMs)
    .sort((a, b) => a.atMs - b.atMs)
  const base = { life, samples: samples.length, first: samples[0], last: samples[samples.length - 1] }
  const baselineFrom = life.startMs + rule.warmupMs
  const baselineTo = baselineFrom + rule.windowMs
  const endFrom = life.endMs - rule.windowMs
  const notJudged = (reason: string): LifeVerdict => ({
    ...base,
    notJudged: reason,
    rss: undefined,
    heap: undefined,
    iterators: undefined,
    failures: []
  })
  if (endFrom < baselineTo) {
    const needed = (rule.warmupMs + 2 * rule.windowMs) / 60_000
    return notJudged(`lived ${((life.endMs - life.startMs) / 60_000).toFixed(1)} min, under warm-up + 2 windows (${needed.toFixed(1)} min)`)
  }
  const baseline = samples.filter(s => s.atMs >= baselineFrom && s.atMs < baselineTo)
  const end = samples.filter(s => s.atMs > endFrom)
  if (baseline.length < MIN_WINDOW_SAMPLES || end.length < MIN_WINDOW_SAMPLES) {
    return notJudged(`${baseline.length} baseline and ${end.length} end samples, under ${MIN_WINDOW_SAMPLES} each`)
  }
  const rss = growth(
    baseline.map(s => s.rss),
    end.map(s => s.rss)
  )
  const heap = growth(
    baseline.map(s => s.heapUsed),
    end.map(s => s.heapUsed)
  )
  const iterators = { baselineMax: Math.max(...baseline.map(s => s.iterators)), endMin: Math.min(...end.map(s => s.iterators)) }
  const failures: string[] = []
  const name = `${life.instance}${life.life}`
  if (rss.growth > rule.maxGrowth) failures.push(`${name}: RSS grew ${percent(rss.growth)} (${MiB(rss.baseline)} -> ${MiB(rss.end)})`)
  if (heap.growth > rule.maxGrowth) failures.push(`${name}: heap grew ${percent(heap.growth)} (${MiB(heap.baseline)} -> ${MiB(heap.end)})`)
  if (iterators.endMin > iterators.baselineMax) {
    failures.push(`${name}: open RocksDB iterators rose from at most ${iterators.baselineMax} to at least ${iterators.endMin}`)
  }
  return { ...base, notJudged: undefined, rss, heap, iterators, failures }
}

/** Everything that fails the run: the output check's findings, then the lives', and no life judged at all. */
export function runFailures(outputs: readonly KindResult[], lives: readonly LifeVerdict[]): string[] {
  const failures = [...outputs.flatMap(o => o.failures), ...lives.flatMap(l => l.failures)]
  if (lives.every(l => l.notJudged !== undefined)) {
    failures.push('no life of an instance lived long enough to be judged: run longer, or shorten --warmup-minutes / --window-minutes')
  }
  return failures
}

/**
 * Checks the application's output against what was produced (InputLedger), record by record as
 * they are read, then all at once:
 *   - counts: per key and window, the highest count seen must equal the clicks produced in it
 *     (at least, when `exact` is off: at-least-once after a crash may count a record twice);
 *   - joined: every (click, view) pair of the join window is there, and nothing else;
 *   - enriched: every view has an output, with its user's value, and nothing else.
 * `exact` also fails duplicated join outputs (each is output once without a crash).
 */
import type { InputLedger } from './input-ledger.js'
import { keyOf, seqOf } from './records.js'

export type OutputKind = 'counts' | 'joined' | 'enriched'

export interface KindResult {
  readonly kind: OutputKind
  /** Records read. */
  readonly records: number
  /** What the output must have: count windows, join pairs, views. */
  readonly expected: number
  /** Expected items with no output, or a count below the produced. */
  readonly missing: number
  /** Counts above the produced (windows). */
  readonly over: number
  /** Records that match nothing produced, or are malformed. */
  readonly unexpected: number
  /** Items output more than once (join pairs and views). */
  readonly duplicated: number
  /** A few examples of what is wrong, for the summary. */
  readonly examples: readonly string[]
  readonly failures: readonly string[]
}

const EXAMPLES = 5

export class OutputCheck {
  readonly #ledger: InputLedger
  readonly #exact: boolean
  /** `key@windowStart` -> highest count read. */
  readonly #counts = new Map<string, number>()
  /** Times click n joined view n, saturating; other pairs below. */
  readonly #samePairs: Uint8Array
  readonly #otherPairs = new Map<number, number>()
  readonly #enriched: Uint8Array
  readonly #records = { counts: 0, joined: 0, enriched: 0 }
  readonly #unexpected = { counts: 0, joined: 0, enriched: 0 }
  readonly #examples = { counts: [] as string[], joined: [] as string[], enriched: [] as string[] }

  /** `exact`: exactly-once, or at-least-once with only clean restarts. */
  constructor(ledger: InputLedger, exact: boolean) {
    this.#ledger = ledger
    this.#exact = exact
    this.#samePairs = new Uint8Array(ledger.clicks)
    this.#enriched = new Uint8Array(ledger.clicks)
  }

  add(kind: OutputKind, key: string, value: string): void {
    this.#records[kind]++
    if (!this.#accept(kind, key, value)) {
      this.#unexpected[kind]++
      this.#example(kind, `unexpected ${key}: ${value}`)
    }
  }

  result(): KindResult[] {
    return [this.#countsResult(), this.#joinedResult(), this.#enrichedResult()]
  }

  #accept(kind: OutputKind, key: string, value: string): boolean {
    const bar = value.indexOf(kind === 'counts' ? ':' : '|')
    if (bar < 0) return false
    const left = value.slice(0, bar)
    const right = value.slice(bar + 1)
    if (kind === 'counts') {
      const start = Number(left)
      const count = Number(right)
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(count)) return false
      const id = `${key}@${start}`
      this.#counts.set(id, Math.max(this.#counts.get(id) ?? 0, count))
      return true
    }
    const clicks = this.#ledger.clicks
    if (kind === 'joined') {
      const click = seqOf(left, 'c')
      const view = seqOf(right, 'v')
      if (click === undefined || view === undefined || click >= clicks || view >= clicks) return false
      if (keyOf(click, this.#ledger.keys) !== key) return false
      if (click === view) this.#samePairs[click] = Math.min(255, this.#samePairs[click]! + 1)
      else this.#otherPairs.set(click * clicks + view, (this.#otherPairs.get(click * clicks + view) ?? 0) + 1)
      return true
    }
    const view = seqOf(left, 'v')
    if (view === undefined || view >= clicks || keyOf(view, this.#ledger.keys) !== key || !right.startsWith(`${key}#`)) return false
    this.#enriched[view] = Math.min(255, this.#enriched[view]! + 1)
    return true
  }

  #countsResult(): KindResult {
    let expected = 0
    let missing = 0
    let over = 0
    const seen = new Set<string>()
    for (const [key, windows] of this.#ledger.expectedCounts()) {
      for (const [start, count] of windows) {
        expected++
        const id = `${key}@${start}`
        seen.add(id)
        const got = this.#counts.get(id) ?? 0
        if (got < count) {
          missing++
          this.#example('counts', `${id}: counted ${got}, produced ${count}`)
        } else if (got > count) {
          over++
          if (this.#exact) this.#example('counts', `${id}: counted ${got}, produced ${count}`)
        }
      }
    }
    let unexpected = this.#unexpected.counts
    for (const id of this.#counts.keys()) {
      if (!seen.has(id)) {
        unexpected++
        this.#example('counts', `${id}: counted ${this.#counts.get(id)}, produced none`)
      }
    }
    const failures: string[] = []
    if (missing > 0) failures.push(`${missing} of ${expected} count windows below the clicks produced in them`)
    if (over > 0 && this.#exact) failures.push(`${over} of ${expected} count windows above the clicks produced in them`)
    if (unexpected > 0) failures.push(`${unexpected} count records for no produced window, or malformed`)
    return {
      kind: 'counts',
      records: this.#records.counts,
      expected,
      missing,
      over,
      unexpected,
      duplicated: 0,
      examples: this.#examples.counts,
      failures
    }
  }

  #joinedResult(): KindResult {
    const clicks = this.#ledger.clicks
    let expected = 0
    let missing = 0
    let duplicated = 0
    let matchedOther = 0
    this.#ledger.forEachExpectedPair((click, view) => {
      expected++
      const times = click === view ? this.#samePairs[click]! : (this.#otherPairs.get(click * clicks + view) ?? 0)
      if (click !== view && times > 0) matchedOther++
      if (times === 0) {
        missing++
        this.#example('joined', `c${click}|v${view} missing`)
      } else if (times > 1) duplicated++
    })
    // A click's own view is always in its window, so only other pairs can be out of it.
    const unexpected = this.#unexpected.joined + this.#otherPairs.size - matchedOther
    return this.#pairResult('joined', expected, missing, unexpected, duplicated, 'join pairs')
  }

  #enrichedResult(): KindResult {
    const views = this.#ledger.clicks
    let missing = 0
    let duplicated = 0
    for (let view = 0; view < views; view++) {
      const times = this.#enriched[view]!
      if (times === 0) {
        missing++
        this.#example('enriched', `v${view} has no table-join output`)
      } else if (times > 1) duplicated++
    }
    return this.#pairResult('enriched', views, missing, this.#unexpected.enriched, duplicated, 'views')
  }

  #pairResult(kind: OutputKind, expected: number, missing: number, unexpected: number, duplicated: number, what: string): KindResult {
    const failures: string[] = []
    if (missing > 0) failures.push(`${missing} of ${expected} ${what} have no ${kind} output`)
    if (unexpected > 0) failures.push(`${unexpected} ${kind} records match nothing produced, or are malformed`)
    if (duplicated > 0 && this.#exact) failures.push(`${duplicated} ${what} output more than once`)
    return {
      kind,
      records: this.#records[kind],
      expected,
      missing,
      over: 0,
      unexpected,
      duplicated,
      examples: this.#examples[kind],
      failures
    }
  }

  #example(kind: OutputKind, text: string): void {
    const list = this.#examples[kind]
    if (list.length < EXAMPLES) list.push(text)
  }
}

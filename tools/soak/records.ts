/**
 * The soak's topics and record formats, shared by the producer, the application and the output
 * check. Input: clicks `c<seq>` and views `v<seq>` (view n has the key of click n and a timestamp
 * VIEW_DELAY_MS later), users `<key>#<version>`; keys go round the key space, so click n has key
 * n mod keys. Output: counts `<window start>:<count>`, joined `c<seq>|v<seq>`, enriched
 * `v<seq>|<user value>`, all keyed by the user.
 */

/** The window of the windowed count, and how late a record may be (stream time - timestamp). */
export const COUNT_WINDOW_MS = 10_000
export const GRACE_MS = 5 * 60_000
/** Before and after of the stream-stream join window. */
export const JOIN_WINDOW_MS = 100
/** How much later than its click a view is stamped. */
export const VIEW_DELAY_MS = 30

export interface SoakTopics {
  readonly clicks: string
  readonly views: string
  readonly users: string
  readonly counts: string
  readonly joined: string
  readonly enriched: string
}

export function soakTopics(prefix: string): SoakTopics {
  return {
    clicks: `${prefix}-clicks`,
    views: `${prefix}-views`,
    users: `${prefix}-users`,
    counts: `${prefix}-counts`,
    joined: `${prefix}-joined`,
    enriched: `${prefix}-enriched`
  }
}

export const inputTopics = (topics: SoakTopics): string[] => [topics.clicks, topics.views, topics.users]
export const outputTopics = (topics: SoakTopics): string[] => [topics.counts, topics.joined, topics.enriched]

/** The key of click (and view) `seq`, or of user update `seq`: `k0042`. */
export function keyOf(seq: number, keys: number): string {
  return `k${String(seq % keys).padStart(Math.max(1, String(keys - 1).length), '0')}`
}

export const clickValue = (seq: number): string => `c${seq}`
export const viewValue = (seq: number): string => `v${seq}`
export const userValue = (key: string, version: number): string => `${key}#${version}`

/** The sequence number of `c<seq>` / `v<seq>`, or undefined for anything else. */
export function seqOf(value: string, prefix: 'c' | 'v'): number | undefined {
  if (value.length < 2 || value[0] !== prefix) return undefined
  const seq = Number(value.slice(1))
  return Number.isSafeInteger(seq) && seq >= 0 ? seq : undefined
}

/** The start of the count window of a timestamp. */
export const windowStartOf = (timestamp: number): number => timestamp - (timestamp % COUNT_WINDOW_MS)

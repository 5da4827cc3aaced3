/**
 * Where the reset moves the input topics' committed offsets, as Kafka's application reset tool
 * takes it: `--to-earliest` (the default), `--to-latest`, `--to-offset`, `--shift-by`,
 * `--to-datetime` (`YYYY-MM-DDThh:mm:ss[.sss]`, local time unless it ends with `Z` or `±hh:mm`,
 * as Kafka's Utils.getDateTime) or `--by-duration` (an ISO-8601 duration `PnDTnHnMnS`, as Java's
 * Duration.parse). At most one of them. @internal
 */
import { UsageError } from '../cli-error.js'

/** The position the input topics are reset to. */
export type ResetPosition =
  | { readonly kind: 'earliest' }
  | { readonly kind: 'latest' }
  | { readonly kind: 'offset'; readonly offset: number }
  | { readonly kind: 'shift'; readonly by: number }
  | { readonly kind: 'datetime'; readonly timestamp: number }
  | { readonly kind: 'duration'; readonly ms: number }

/** The options of `reset` that choose a position, each excluding the others. */
export const POSITION_OPTIONS = ['to-earliest', 'to-latest', 'to-offset', 'shift-by', 'to-datetime', 'by-duration'] as const

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/
const DURATION = /^([-+]?)P(?:([-+]?\d+)D)?(?:T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+)(?:[.,](\d{0,9}))?S)?)?$/i

/** The datetime as epoch milliseconds; a UsageError naming `--to-datetime` when it is not one. */
export function parseDatetime(text: string): number {
  const m = DATETIME.exec(text.trim())
  const fail = (): never => {
    throw new UsageError('reset', `--to-datetime needs YYYY-MM-DDThh:mm:ss.sss (optionally ending in Z or +hh:mm), got '${text}'`)
  }
  if (m === null) return fail()
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const ms = Number((m[7] ?? '0').padEnd(3, '0'))
  const zone = m[8]
  let time: number
  if (zone === undefined) time = new Date(year, month - 1, day, hour, minute, second, ms).getTime()
  else {
    const [, sign, hh, mm] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone) ?? ['', '+', '0', '0']
    const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm ?? 0))
    time = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000
  }
  // Reject what Date would roll over (month 13, February 30, hour 25).
  const check = zone === undefined ? new Date(time) : new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms))
  const parts =
    zone === undefined
      ? [check.getFullYear(), check.getMonth() + 1, check.getDate(), check.getHours(), check.getMinutes(), check.getSeconds()]
      : [
          check.getUTCFullYear(),
          check.getUTCMonth() + 1,
          check.getUTCDate(),
          check.getUTCHours(),
          check.getUTCMinutes(),
          check.getUTCSeconds()
        ]
  if (Number.isNaN(time) || parts.some((p, i) => p !== [year, month, day, hour, minute, second][i])) return fail()
  return time
}

/** The ISO-8601 duration in milliseconds (may be negative, as Java's Duration); a UsageError naming `--by-duration` otherwise. */
export function parseDuration(text: string): number {
  const m = DURATION.exec(text.trim())
  if (m === null || (m[2] === undefined && m[3] === undefined && m[4] === undefined && m[5] === undefined) || /T$/i.test(text.trim()))
    throw new UsageError('reset', `--by-duration needs an ISO-8601 duration PnDTnHnMnS (e.g. P1DT2H, PT15M), got '${text}'`)
  const [, sign, days, hours, minutes, seconds, fraction] = m
  const secondsMs = Number(seconds ?? 0) * 1000
  const fractionMs =
    Math.trunc(Number((fraction ?? '').padEnd(9, '0').slice(0, 9)) / 1e6) * (String(seconds ?? '').startsWith('-') ? -1 : 1)
  const total = Number(days ?? 0) * 86_400_000 + Number(hours ?? 0) * 3_600_000 + Number(minutes ?? 0) * 60_000 + secondsMs + fractionMs
  return sign === '-' ? -total : total
}

/** The position from the given options (`--to-earliest` when none is given); a UsageError when more than one is. */
export function resetPosition(given: {
  readonly toEarliest: boolean
  readonly toLatest: boolean
  readonly toOffset: number | undefined
  readonly shiftBy: number | undefined
  readonly toDatetime: string | undefined
  readonly byDuration: string | undefined
}): ResetPosition {
  const chosen = [
    given.toEarliest && 'to-earliest',
    given.toLatest && 'to-latest',
    given.toOffset !== undefined && 'to-offset',
    given.shiftBy !== undefined && 'shift-by',
    given.toDatetime !== undefined && 'to-datetime',
    given.byDuration !== undefined && 'by-duration'
  ].filter((o): o is string => o !== false)
  if (chosen.length > 1)
    throw new UsageError('reset', `only one of --${POSITION_OPTIONS.join(', --')} may be given, got --${chosen.join(' and --')}`)
  if (given.toLatest) return { kind: 'latest' }
  if (given.toOffset !== undefined) return { kind: 'offset', offset: given.toOffset }
  if (given.shiftBy !== undefined) return { kind: 'shift', by: given.shiftBy }
  if (given.toDatetime !== undefined) return { kind: 'datetime', timestamp: parseDatetime(given.toDatetime) }
  if (given.byDuration !== undefined) return { kind: 'duration', ms: parseDuration(given.byDuration) }
  return { kind: 'earliest' }
}

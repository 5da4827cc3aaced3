/**
 * The `autoOffsetReset` config (consumer `auto.offset.reset`, KIP-1106): an AutoOffsetReset
 * value, or Kafka's string form `by_duration:<ISO-8601 duration>` (`by_duration:PT1H`), parsed
 * as Java's Duration.parse does (`PnDTnHnMn.nS`, signs per part, up to nine fractional digits of
 * a second) and rejected when negative, as Kafka's AutoOffsetResetStrategy does. @internal
 */
import { AutoOffsetReset, isAutoOffsetReset } from '../processor/api.js'

const BY_DURATION_PREFIX = 'by_duration:'
const ISO_DURATION = /^([-+]?)P(?:([-+]?[0-9]+)D)?(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?$/i
const NANOS_PER_MS = 1_000_000n

/** The config value as an AutoOffsetReset; throws an Error saying what is wrong. */
export function parseAutoOffsetReset(value: unknown): AutoOffsetReset {
  if (isAutoOffsetReset(value)) return value
  if (typeof value === 'string' && value.startsWith(BY_DURATION_PREFIX)) {
    const ms = isoDurationMs(value.slice(BY_DURATION_PREFIX.length))
    if (ms === undefined) throw new Error(`unable to parse the duration of "${value}" (ISO-8601, e.g. "by_duration:PT1H")`)
    if (ms < 0) throw new Error(`negative duration is not supported in the by_duration offset reset strategy ("${value}")`)
    if (!Number.isSafeInteger(ms)) throw new Error(`the duration of "${value}" is too long`)
    return AutoOffsetReset.byDuration(ms)
  }
  throw new Error(
    `must be "earliest", "latest", "none", AutoOffsetReset.byDuration(ms) or of the format "by_duration:<PnDTnHnMn.nS>", got ${describe(value)}`
  )
}

/** The config check: undefined when valid, else what is wrong. */
export function checkAutoOffsetReset(value: unknown): string | undefined {
  try {
    parseAutoOffsetReset(value)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/** Java's Duration.parse(text).toMillis(); undefined when `text` is not an ISO-8601 duration. */
function isoDurationMs(text: string): number | undefined {
  const match = ISO_DURATION.exec(text)
  if (match === null || match[3]?.toUpperCase() === 'T') return undefined
  const [, sign, days, , hours, minutes, seconds, fraction] = match
  if (days === undefined && hours === undefined && minutes === undefined && seconds === undefined) return undefined
  const part = (digits: string | undefined, nanosPerUnit: bigint): bigint => (digits === undefined ? 0n : BigInt(digits) * nanosPerUnit)
  let nanos =
    part(days, 86_400_000_000_000n) + part(hours, 3_600_000_000_000n) + part(minutes, 60_000_000_000n) + part(seconds, 1_000_000_000n)
  if (fraction !== undefined && fraction !== '') {
    const fractionNanos = BigInt(fraction.padEnd(9, '0'))
    nanos += seconds?.startsWith('-') === true ? -fractionNanos : fractionNanos
  }
  if (sign === '-') nanos = -nanos
  // toMillis floors: the seconds are normalised so that the nanoseconds are not negative.
  const ms = nanos >= 0n ? nanos / NANOS_PER_MS : -((-nanos + NANOS_PER_MS - 1n) / NANOS_PER_MS)
  return Number(ms)
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (value !== null && typeof value === 'object') return JSON.stringify(value) ?? String(value)
  return String(value)
}

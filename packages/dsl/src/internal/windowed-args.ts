/** Argument handling shared by the windowed streams: optional Named and Materialized, required functions. @internal */
import { StreamsError } from '@kstreams/core'
import { Materialized } from '../materialized.js'
import type { Named } from '../named.js'

export function splitArgs<K, V>(
  named: Named | Materialized<K, V> | undefined,
  materialized: Materialized<K, V> | undefined
): { named: Named | undefined; materialized: Materialized<K, V> | undefined } {
  if (named instanceof Materialized) return { named: undefined, materialized: named }
  return { named, materialized }
}

/** Kafka Streams' null checks of required functions: a missing one is an ILLEGAL_ARGUMENT error. */
export function requireFunction(fn: unknown, name: string): void {
  if (typeof fn !== 'function') throw new StreamsError('ILLEGAL_ARGUMENT', `${name} can't be null`)
}

/**
 * The processor behind KTable.groupBy (Kafka Streams' KTableRepartitionMap, 4.x / KIP-904): maps
 * every update `Change(new, old)` of the parent table with the selector to a new key and value.
 * When the old and the new value select the same key, ONE record carrying both goes to the
 * repartition topic (the aggregation subtracts then adds in one step); otherwise a subtraction
 * `Change(null, old)` goes to the old key first, then an addition `Change(new, null)` to the
 * new key. A pair whose key or value is null is not sent. Keys are compared by value (their
 * serialized bytes when they are not primitives). @internal
 */
import { type KeyValue, StreamsError } from '@kstreams/core'
import type { ProcessorContext, ProcessorSupplier, Record, Serde, Serializer } from '@kstreams/core'
import { Change } from '../change.js'
import type { KeyValueMapper } from '../functions.js'
import type { ChangedSerde } from './changed-serde.js'

export function repartitionMapProcessor<K, V, KR, VR>(
  selector: KeyValueMapper<K, V, KeyValue<KR, VR>>,
  keySerde: Serde<KR> | undefined,
  changedSerde: ChangedSerde<VR>
): ProcessorSupplier<K, Change<V>, KR, Change<VR>> {
  return () => {
    let context: ProcessorContext<KR, Change<VR>>
    let keySerializer: Serializer<KR> | undefined
    const select = (key: K, value: V | null): KeyValue<KR, VR> | null => {
      if (value === null || value === undefined) return null
      const pair = selector(key, value)
      if (pair === null || pair === undefined) return null
      return isSet(pair.key) && isSet(pair.value) ? pair : null
    }
    return {
      init(c) {
        context = c
        changedSerde.resolveDefault(c.appConfigs)
        keySerializer = (keySerde ?? (c.appConfigs.defaultKeySerde as Serde<KR> | undefined))?.serializer()
      },
      process(record: Record<K, Change<V>>) {
        if (record.key === null || record.key === undefined) {
          throw new StreamsError('PROCESSING', 'Record key for the grouping KTable should not be null.')
        }
        const newPair = select(record.key, record.value.newValue)
        const oldPair = select(record.key, record.value.oldValue)
        if (oldPair !== null && newPair !== null && sameKey(oldPair.key, newPair.key, keySerializer)) {
          context.forward(record.withKey(newPair.key).withValue(new Change<VR>(newPair.value, oldPair.value)))
          return
        }
        if (oldPair !== null) context.forward(record.withKey(oldPair.key).withValue(new Change<VR>(null, oldPair.value)))
        if (newPair !== null) context.forward(record.withKey(newPair.key).withValue(new Change<VR>(newPair.value, null)))
      }
    }
  }
}

function isSet(value: unknown): boolean {
  return value !== null && value !== undefined
}

/** Java's `equals` on keys: primitives by value, buffers by content, anything else by its serialized bytes. */
function sameKey<KR>(a: KR, b: KR, serializer: Serializer<KR> | undefined): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object') return false
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b)
  if (serializer === undefined) return false
  const left = serializer.serialize('', a)
  const right = serializer.serialize('', b)
  return left !== null && right !== null && left.equals(right)
}

/**
 * The record-at-a-time processors behind the stateless KStream operators (Kafka Streams'
 * KStreamFilter, KStreamMap, KStreamMapValues, KStreamFlatMap, KStreamFlatMapValues, KStreamPeek,
 * KStreamBranch and the pass-through node). Each forwards the input record (timestamp and
 * headers kept) with the new key and/or value. @internal
 */
import type { KeyValue, Processor, ProcessorContext, ProcessorSupplier, Record } from '@kstreams/core'
import { StreamsError } from '@kstreams/core'
import type { ForeachAction, KeyValueMapper, Predicate } from '../functions.js'

/** A processor that hands each record and the context to `fn`. */
function processor<KIn, VIn, KOut, VOut>(
  fn: (record: Record<KIn, VIn>, context: ProcessorContext<KOut, VOut>) => void
): ProcessorSupplier<KIn, VIn, KOut, VOut> {
  return () => {
    let context: ProcessorContext<KOut, VOut>
    const p: Processor<KIn, VIn, KOut, VOut> = {
      init(c) {
        context = c
      },
      process(record) {
        fn(record, context)
      }
    }
    return p
  }
}

export function filterProcessor<K, V>(predicate: Predicate<K, V>, filterNot: boolean): ProcessorSupplier<K, V, K, V> {
  return processor<K, V, K, V>((record, context) => {
    if (filterNot !== predicate(record.key, record.value)) context.forward(record)
  })
}

export function mapProcessor<K, V, KR, VR>(mapper: KeyValueMapper<K, V, KeyValue<KR, VR>>): ProcessorSupplier<K, V, KR, VR> {
  return processor<K, V, KR, VR>((record, context) => {
    const kv = mapper(record.key, record.value)
    if (kv === null || kv === undefined)
      throw new StreamsError('ILLEGAL_ARGUMENT', 'The provided KeyValueMapper returned null which is not allowed.')
    context.forward(record.withKey(kv.key).withValue(kv.value))
  })
}

export function selectKeyProcessor<K, V, KR>(mapper: KeyValueMapper<K, V, KR>): ProcessorSupplier<K, V, KR, V> {
  return processor<K, V, KR, V>((record, context) => {
    context.forward(record.withKey(mapper(record.key, record.value)))
  })
}

export function mapValuesProcessor<K, V, VR>(mapper: (key: K, value: V) => VR): ProcessorSupplier<K, V, K, VR> {
  return processor<K, V, K, VR>((record, context) => {
    context.forward(record.withValue(mapper(record.key, record.value)))
  })
}

export function flatMapProcessor<K, V, KR, VR>(mapper: KeyValueMapper<K, V, Iterable<KeyValue<KR, VR>>>): ProcessorSupplier<K, V, KR, VR> {
  return processor<K, V, KR, VR>((record, context) => {
    for (const kv of mapper(record.key, record.value)) context.forward(record.withKey(kv.key).withValue(kv.value))
  })
}

export function flatMapValuesProcessor<K, V, VR>(mapper: (key: K, value: V) => Iterable<VR>): ProcessorSupplier<K, V, K, VR> {
  return processor<K, V, K, VR>((record, context) => {
    for (const value of mapper(record.key, record.value)) context.forward(record.withValue(value))
  })
}

/** `peek` forwards after the action; `foreach` (forward = false) ends the branch. */
export function peekProcessor<K, V>(action: ForeachAction<K, V>, forward: boolean): ProcessorSupplier<K, V, K, V> {
  return processor<K, V, K, V>((record, context) => {
    action(record.key, record.value)
    if (forward) context.forward(record)
  })
}

export function passThroughProcessor<K, V>(): ProcessorSupplier<K, V, K, V> {
  return processor<K, V, K, V>((record, context) => {
    context.forward(record)
  })
}

/**
 * Sends each record to the child of the first predicate it satisfies; `childNames` may hold one
 * more name than there are predicates: the default branch. Both lists grow while the DSL is built.
 */
export function branchProcessor<K, V>(
  predicates: ReadonlyArray<Predicate<K, V>>,
  childNames: readonly string[]
): ProcessorSupplier<K, V, K, V> {
  return processor<K, V, K, V>((record, context) => {
    for (let i = 0; i < predicates.length; i++) {
      if (predicates[i]!(record.key, record.value)) {
        context.forward(record, childNames[i])
        return
      }
    }
    if (childNames.length > predicates.length) context.forward(record, childNames[childNames.length - 1])
  })
}

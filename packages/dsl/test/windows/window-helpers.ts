/** Test helpers of the windowed aggregations: capture windowed records as [`[key@start/end]`, value, timestamp]. */
import type { Processor, ProcessorSupplier, Windowed } from '@kstreams/core'

export type WKVT<V> = [string, V | null, number]

/** A processor supplier recording every windowed record it processes (Kafka's MockApiProcessorSupplier). */
export function windowedCapture<K, V>(): { supplier: ProcessorSupplier<Windowed<K>, V, never, never>; processed: Array<WKVT<V>> } {
  const processed: Array<WKVT<V>> = []
  const supplier = (): Processor<Windowed<K>, V, never, never> => ({
    process(r) {
      processed.push([r.key.toString(), r.value, r.timestamp])
    }
  })
  return { supplier, processed }
}

/** `[key@start/end]`, as Windowed.toString prints it. */
export function w(key: string, start: number, end: number): string {
  return `[${key}@${start}/${end}]`
}

export { droppedRecordsTotal as droppedRecords } from '../helpers.js'

/**
 * The processor behind `KStream.print` (Kafka Streams' KStreamPrint with PrintForeachAction):
 * writes `[label]: <mapper(key, value)>` and a newline per record, forwards nothing. @internal
 */
import type { Processor, ProcessorSupplier } from '@kstreams/core'
import type { KeyValueMapper } from '../functions.js'
import type { PrintOutput } from './print-output.js'

/** Every processor instance writes to `output`, opening it in init and closing it in close. @internal */
export function printProcessor<K, V>(output: PrintOutput, label: string, mapper: KeyValueMapper<K, V, string>): ProcessorSupplier<K, V> {
  return (): Processor<K, V> => {
    let opened = false
    return {
      init() {
        output.open()
        opened = true
      },
      process(record) {
        output.write(`[${label}]: ${mapper(record.key, record.value)}\n`)
      },
      close() {
        if (!opened) return
        opened = false
        output.close()
      }
    }
  }
}

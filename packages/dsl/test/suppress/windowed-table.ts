/**
 * A handcrafted KTable<Windowed<string>, number> for the suppression tests: the processor turns
 * records of topic `windowed` with value `<windowStart>:<count or null>` into updates of the
 * window [start, start + size), and its supplier exposes the window close delay as a windowed
 * aggregation does.
 */
import { Change } from '../../src/change.js'
import { Record, Serdes, TimeWindow, Windowed, WindowedSerdes } from '@kstreams/core'
import type { Processor, ProcessorContext } from '@kstreams/core'
import type { KTableProcessorSupplier } from '../../src/internal/ktable-processor-supplier.js'
import { Consumed, KTable, type StreamsBuilder } from '../../src/index.js'
import { withWindowCloseDelay } from '../../src/internal/suppress/ktable-suppress.js'

export const WINDOWED_INPUT = 'windowed'

export function windowedTable(builder: StreamsBuilder, windowSize: number, closeDelayMs: number): KTable<Windowed<string>, number> {
  const stream = builder.stream(WINDOWED_INPUT, Consumed.with(Serdes.String(), Serdes.String()))
  const name = 'WINDOWED-AGGREGATE'
  const create = (): Processor<string, string, Windowed<string>, Change<number>> => {
    let context: ProcessorContext<Windowed<string>, Change<number>>
    return {
      init(c) {
        context = c
      },
      process(record) {
        const [start, count] = record.value.split(':')
        const window = new TimeWindow(Number(start), Number(start) + windowSize)
        const value = count === 'null' ? null : Number(count)
        context.forward(new Record(new Windowed(record.key, window), new Change<number>(value, null), record.timestamp, record.headers))
      }
    }
  }
  const supplier = withWindowCloseDelay(
    {
      sendOldValues: false,
      storeName: undefined,
      enableSendingOldValues: () => true,
      view: () => {
        throw new Error('no view')
      },
      get: create
    },
    closeDelayMs
  )
  stream.builder.topology.addProcessor(name, create, stream.name)
  return new KTable<Windowed<string>, number>(
    stream.builder,
    name,
    WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), windowSize),
    Serdes.Long(),
    supplier as unknown as KTableProcessorSupplier<unknown, unknown, Windowed<string>, number>,
    undefined
  )
}

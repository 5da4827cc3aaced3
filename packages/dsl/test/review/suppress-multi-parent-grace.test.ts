/**
 * Review: suppress(untilWindowCloses) finds the window close delay through a node with several
 * parents (Kafka's KTableImpl grace search takes the largest grace of the parents, which is how
 * a cogrouped windowed aggregation, whose result node is a merge of per-stream aggregators, can
 * be suppressed). The merge supplier is simulated here: it exposes `parentSuppliers`.
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import type { Windowed } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { BufferConfig, Consumed, Materialized, Produced, StreamsBuilder, Suppressed, TimeWindows } from '../../src/index.js'
import { KTable } from '../../src/ktable.js'
import type { KTableProcessorSupplier } from '../../src/internal/ktable-processor-supplier.js'
import { readAll } from '../helpers.js'

const S = Serdes.String()
const L = Serdes.Long()

describe('review: suppress through a multi-parent table node', () => {
  it('uses the grace period of the windowed aggregations upstream of a merge', () => {
    const builder = new StreamsBuilder()
    const counts = builder
      .stream('in', Consumed.with(S, S))
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
      .count(Materialized.as<string, number>('counts').withKeySerde(S).withCachingDisabled())
    const parent = counts.supplier as KTableProcessorSupplier<unknown, unknown, Windowed<string>, number>
    const merge = {
      sendOldValues: false,
      storeName: parent.storeName,
      enableSendingOldValues: (force: boolean) => parent.enableSendingOldValues(force),
      view: () => parent.view(),
      get: () => parent.get(),
      parentSuppliers: [parent]
    }
    const merged = new KTable<Windowed<string>, number>(
      counts.builder,
      counts.name,
      counts.keySerde,
      counts.valueSerde,
      merge as unknown as KTableProcessorSupplier<unknown, unknown, Windowed<string>, number>,
      undefined
    )
    merged
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream()
      .map((k, v) => KeyValue.pair(k.toString(), v))
      .to('out', Produced.with(S, L))
    const driver = new TopologyTestDriver(builder.build())
    try {
      const input = driver.createInputTopic('in', S, S)
      const out = driver.createOutputTopic('out', S, L)
      input.pipeInput('k', 'a', 0)
      input.pipeInput('k', 'b', 5)
      input.pipeInput('k', 'c', 14)
      expect(readAll(out)).to.deep.equal([])
      input.pipeInput('k', 'd', 15)
      expect(readAll(out)).to.deep.equal([['[k@0/10]', 2, 5]])
    } finally {
      driver.close()
    }
  })
})

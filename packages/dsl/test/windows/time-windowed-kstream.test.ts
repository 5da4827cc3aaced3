import { expect } from 'chai'
import { Serdes, TimeWindow, Windowed } from '@kstreams/core'
import type { Processor } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, Materialized, StreamsBuilder } from '../../src/index.js'
import { EmitStrategy } from '../../src/emit-strategy.js'
import { TimeWindows } from '../../src/time-windows.js'
import type { TimeWindowedKStream } from '../../src/time-windowed-kstream.js'
import { w, windowedCapture } from './window-helpers.js'

const S = Serdes.String()
const L = Serdes.Long()
const TOPIC = 'input'

/** TimeWindowedKStreamImplTest's processData. */
function processData(driver: TopologyTestDriver): void {
  const input = driver.createInputTopic(TOPIC, S, S)
  input.pipeInput('1', '1', 10)
  input.pipeInput('1', '2', 15)
  input.pipeInput('1', '3', 500)
  input.pipeInput('2', '10', 550)
  input.pipeInput('2', '20', 500)
  input.pipeInput('2', '30', 1000)
}

function windowed(builder: StreamsBuilder): TimeWindowedKStream<string, string> {
  return builder.stream(TOPIC, Consumed.with(S, S)).groupByKey(Grouped.with(S, S)).windowedBy(TimeWindows.ofSizeWithNoGrace(500))
}

function cache<K, V>(m: Materialized<K, V>, withCache: boolean): Materialized<K, V> {
  return withCache ? m.withCachingEnabled() : m.withCachingDisabled()
}

/**
 * Kafka's test runs on its default RocksDB stores, whose segments keep closed windows readable;
 * the in-memory store (our default, as Kafka's in-memory one) drops a window as soon as stream
 * time reaches start + retention, i.e. when it closes. A longer retention keeps closed windows
 * for the emit pass.
 */
function retained<K, V>(m: Materialized<K, V>, emitFinal: boolean): Materialized<K, V> {
  return emitFinal ? m.withRetention(1000) : m
}

describe('TimeWindowedKStream (TimeWindowedKStreamImplTest)', () => {
  for (const emitFinal of [false, true]) {
    for (const withCache of [true, false]) {
      const strategy = emitFinal ? EmitStrategy.onWindowClose() : EmitStrategy.onWindowUpdate()
      const label = `${emitFinal ? 'on window close' : 'on window update'}, caching ${withCache ? 'on' : 'off'}`

      it(`counts per window (${label})`, () => {
        const builder = new StreamsBuilder()
        const { supplier, processed } = windowedCapture<string, number>()
        windowed(builder)
          .emitStrategy(strategy)
          .count(retained(cache(Materialized.with<string, number>(S, L), withCache), emitFinal))
          .toStream()
          .process(supplier)
        const driver = new TopologyTestDriver(builder.build())
        processData(driver)
        driver.close()
        expect(processed).to.deep.equal(
          emitFinal
            ? [
                [w('1', 0, 500), 2, 15],
                [w('1', 500, 1000), 1, 500],
                [w('2', 500, 1000), 2, 550]
              ]
            : [
                [w('1', 0, 500), 1, 10],
                [w('1', 0, 500), 2, 15],
                [w('1', 500, 1000), 1, 500],
                [w('2', 500, 1000), 1, 550],
                [w('2', 500, 1000), 2, 550],
                [w('2', 1000, 1500), 1, 1000]
              ]
        )
      })

      it(`reduces per window (${label})`, () => {
        const builder = new StreamsBuilder()
        const { supplier, processed } = windowedCapture<string, string>()
        windowed(builder)
          .emitStrategy(strategy)
          .reduce((a, b) => a + '+' + b, retained(cache(Materialized.with<string, string>(S, S), withCache), emitFinal))
          .toStream()
          .process(supplier)
        const driver = new TopologyTestDriver(builder.build())
        processData(driver)
        driver.close()
        expect(processed).to.deep.equal(
          emitFinal
            ? [
                [w('1', 0, 500), '1+2', 15],
                [w('1', 500, 1000), '3', 500],
                [w('2', 500, 1000), '10+20', 550]
              ]
            : [
                [w('1', 0, 500), '1', 10],
                [w('1', 0, 500), '1+2', 15],
                [w('1', 500, 1000), '3', 500],
                [w('2', 500, 1000), '10', 550],
                [w('2', 500, 1000), '10+20', 550],
                [w('2', 1000, 1500), '30', 1000]
              ]
        )
      })

      it(`aggregates per window (${label})`, () => {
        const builder = new StreamsBuilder()
        const { supplier, processed } = windowedCapture<string, string>()
        windowed(builder)
          .emitStrategy(strategy)
          .aggregate(
            () => '0',
            (_k, v, agg) => agg + '+' + v,
            retained(cache(Materialized.with<string, string>(S, S), withCache), emitFinal)
          )
          .toStream()
          .process(supplier)
        const driver = new TopologyTestDriver(builder.build())
        processData(driver)
        driver.close()
        expect(processed).to.deep.equal(
          emitFinal
            ? [
                [w('1', 0, 500), '0+1+2', 15],
                [w('1', 500, 1000), '0+3', 500],
                [w('2', 500, 1000), '0+10+20', 550]
              ]
            : [
                [w('1', 0, 500), '0+1', 10],
                [w('1', 0, 500), '0+1+2', 15],
                [w('1', 500, 1000), '0+3', 500],
                [w('2', 500, 1000), '0+10', 550],
                [w('2', 500, 1000), '0+10+20', 550],
                [w('2', 1000, 1500), '0+30', 1000]
              ]
        )
      })
    }
  }

  it('materializes the counts in a queryable window store, expiring windows past the retention', () => {
    const builder = new StreamsBuilder()
    windowed(builder).count(Materialized.as<string, number>('count-store').withKeySerde(S).withValueSerde(L).withCachingDisabled())
    const driver = new TopologyTestDriver(builder.build())
    processData(driver)
    const rows = [...driver.getTimestampedWindowStore<string, number>('count-store')!.fetch('1', '2', 0, 1000)].map(kv => [
      kv.key.toString(),
      kv.value.value,
      kv.value.timestamp
    ])
    const plain = [...driver.getWindowStore<string, number>('count-store')!.fetch('1', '2', 0, 1000)].map(kv => [
      kv.key.toString(),
      kv.value
    ])
    driver.close()
    // The store keeps windows starting after stream time (1000) - retention (500).
    expect(rows).to.deep.equal([[w('2', 1000, 1500), 1, 1000]])
    expect(plain).to.deep.equal([[w('2', 1000, 1500), 1]])
  })

  it('reads windows through the view (value getter) of the windowed table', () => {
    const builder = new StreamsBuilder()
    const table = windowed(builder).count(
      Materialized.as<string, number>('count-store').withKeySerde(S).withValueSerde(L).withRetention(1000)
    )
    const view = table.supplier.view()
    const seen: unknown[] = []
    const topology = builder.build()
    topology.addSource('probe-source', 'probe', { keyDeserializer: S, valueDeserializer: S })
    topology.addProcessor(
      'probe',
      (): Processor<string, string> => {
        const getter = view.get()
        return {
          init(context) {
            getter.init(context)
          },
          process(r) {
            const start = Number(r.value)
            const vt = getter.get(new Windowed(r.key, new TimeWindow(start, start + 500)))
            seen.push(vt === null ? null : [vt.value, vt.timestamp])
          }
        }
      },
      'probe-source'
    )
    topology.connectProcessorAndStateStores('probe', ...view.storeNames())
    const driver = new TopologyTestDriver(topology)
    processData(driver)
    const probe = driver.createInputTopic('probe', S, S)
    probe.pipeInput('2', '500', 1000)
    probe.pipeInput('2', '1000', 1000)
    probe.pipeInput('1', '1000', 1000)
    expect(seen).to.deep.equal([[2, 550], [1, 1000], null])
    driver.close()
  })

  it('materializes reduced and aggregated values with their timestamps', () => {
    const builder = new StreamsBuilder()
    const stream = windowed(builder)
    stream.reduce((a, b) => a + '+' + b, Materialized.as<string, string>('reduced').withKeySerde(S).withValueSerde(S).withRetention(1000))
    stream.aggregate(
      () => '0',
      (_k, v, agg) => agg + '+' + v,
      Materialized.as<string, string>('aggregated').withValueSerde(S).withCachingDisabled().withRetention(1000)
    )
    const driver = new TopologyTestDriver(builder.build())
    processData(driver)
    const read = (name: string): unknown[] =>
      [...driver.getTimestampedWindowStore<string, string>(name)!.fetch('1', '2', 0, 1000)].map(kv => [
        kv.key.toString(),
        kv.value.value,
        kv.value.timestamp
      ])
    // retention 1000: windows starting at or before 1000 - 1000 = 0 have expired.
    expect(read('reduced')).to.deep.equal([
      [w('1', 500, 1000), '3', 500],
      [w('2', 500, 1000), '10+20', 550],
      [w('2', 1000, 1500), '30', 1000]
    ])
    expect(read('aggregated')).to.deep.equal([
      [w('1', 500, 1000), '0+3', 500],
      [w('2', 500, 1000), '0+10+20', 550],
      [w('2', 1000, 1500), '0+30', 1000]
    ])
    driver.close()
  })
})

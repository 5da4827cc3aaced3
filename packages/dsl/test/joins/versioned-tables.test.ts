/**
 * Versioned tables (KIP-914): a source table materialized with a versioned store supplier keeps
 * every version, emits only when its latest value changes (not for out-of-order updates, nor for
 * updates older than its history retention), and a stream-table join looks the table up as of
 * each stream record's timestamp. Runs on the in-memory versioned store (the RocksDB one is the
 * same algorithm, checked by the store compliance suite).
 */
import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import type { VersionedBytesStoreSupplier } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed } from '../../src/consumed.js'
import { Materialized } from '../../src/materialized.js'
import { Produced } from '../../src/produced.js'
import { StreamsBuilder } from '../../src/streams-builder.js'
import { readAll } from '../helpers.js'

const S = Serdes.String()
const joiner = (v: string, t: string | null): string => `${v}+${String(t)}`

const backends: Array<[string, (name: string, historyRetentionMs: number) => VersionedBytesStoreSupplier]> = [
  ['in-memory', (name, retention) => Stores.inMemoryVersionedKeyValueStore(name, retention)]
]

for (const [backend, supplier] of backends) {
  describe(`versioned tables (${backend})`, () => {
    let driver: TopologyTestDriver | undefined
    afterEach(() => {
      driver?.close()
      driver = undefined
    })

    it('emits only when the latest value changes, keeps out-of-order versions, drops writes older than the history retention', () => {
      const builder = new StreamsBuilder()
      builder
        .table('input', Consumed.with(S, S), Materialized.as<string, string>(supplier('versioned-table', 100)))
        .toStream()
        .to('output', Produced.with(S, S))
      driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('input', S, S)
      const output = driver.createOutputTopic('output', S, S)
      input.pipeInput('k', 'v1', 1000)
      input.pipeInput('k', 'v2', 1020)
      input.pipeInput('k', 'v0', 1015) // out of order: into the history, not emitted
      const store = driver.getVersionedKeyValueStore<string, string>('versioned-table')
      expect(store?.get('k')?.value).to.equal('v2')
      const asOf = store?.get('k', 1016)
      expect([asOf?.value, asOf?.timestamp, asOf?.validTo]).to.deep.equal(['v0', 1015, 1020])
      const before = store?.get('k', 1014)
      expect([before?.value, before?.timestamp, before?.validTo]).to.deep.equal(['v1', 1000, 1015])
      input.pipeInput('j', 'a', 1200)
      input.pipeInput('k', 'late', 1099) // older than stream time 1200 - history retention 100: not put
      input.pipeInput('k', null, 1300)
      expect(readAll(output)).to.deep.equal([
        ['k', 'v1', 1000],
        ['k', 'v2', 1020],
        ['j', 'a', 1200],
        ['k', null, 1300]
      ])
      expect(store?.get('k')).to.equal(null)
      expect(store?.get('k', 1250)?.value).to.equal('v2')
    })

    it('toTable() takes a versioned store too', () => {
      const builder = new StreamsBuilder()
      builder
        .stream('input', Consumed.with(S, S))
        .toTable(Materialized.as<string, string>(supplier('versioned-to-table', 100)))
        .toStream()
        .to('output', Produced.with(S, S))
      driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('input', S, S)
      input.pipeInput('k', 'v2', 20)
      input.pipeInput('k', 'v1', 10)
      expect(readAll(driver.createOutputTopic('output', S, S))).to.deep.equal([['k', 'v2', 20]])
      expect(driver.getVersionedKeyValueStore<string, string>('versioned-to-table')?.get('k', 15)?.value).to.equal('v1')
    })

    for (const kind of ['join', 'leftJoin'] as const) {
      it(`stream-table ${kind} looks the versioned table up as of the stream record's timestamp`, () => {
        const builder = new StreamsBuilder()
        const table = builder.table('table', Consumed.with(S, S), Materialized.as<string, string>(supplier('versioned-join', 10_000)))
        const stream = builder.stream('stream', Consumed.with(S, S))
        const joined = kind === 'join' ? stream.join(table, joiner) : stream.leftJoin(table, joiner)
        joined.to('output', Produced.with(S, S))
        driver = new TopologyTestDriver(builder.build())
        const tableIn = driver.createInputTopic('table', S, S)
        const streamIn = driver.createInputTopic('stream', S, S)
        tableIn.pipeInput('k', 't1', 100)
        tableIn.pipeInput('k', 't2', 200)
        streamIn.pipeInput('k', 's1', 150)
        streamIn.pipeInput('k', 's2', 250)
        streamIn.pipeInput('k', 's0', 50)
        tableIn.pipeInput('k', 't15', 150) // out of order: a version valid in [150, 200)
        streamIn.pipeInput('k', 's3', 160)
        streamIn.pipeInput('k', 's4', 199)
        tableIn.pipeInput('k', null, 300)
        streamIn.pipeInput('k', 's5', 310)
        streamIn.pipeInput('k', 's6', 290)
        const expected: Array<[string, string, number]> = [
          ['k', 's1+t1', 150],
          ['k', 's2+t2', 250],
          ...(kind === 'leftJoin' ? [['k', 's0+null', 50] as [string, string, number]] : []),
          ['k', 's3+t15', 160],
          ['k', 's4+t15', 199],
          ...(kind === 'leftJoin' ? [['k', 's5+null', 310] as [string, string, number]] : []),
          ['k', 's6+t2', 290]
        ]
        expect(readAll(driver.createOutputTopic('output', S, S))).to.deep.equal(expected)
      })
    }

    it('refuses a versioned supplier for an aggregation store (ILLEGAL_ARGUMENT)', () => {
      const builder = new StreamsBuilder()
      expect(() =>
        builder
          .stream('input', Consumed.with(S, S))
          .groupByKey()
          .count(Materialized.as<string, number>(supplier('versioned-count', 100) as never))
      ).to.throw(/versioned store supplier materializes only source tables/)
    })
  })
}

import { expect } from 'chai'
import { KafkaStreams, Serdes, QueryableStoreTypes, InteractiveQueryServer } from '@kstreams/core'
import { Consumed, Grouped, Materialized, StreamsBuilder } from '@kstreams/dsl'
import { bootstrapServers, createTopics, produce, tempDir, unique, waitFor, freePort, getJson, testClient } from './helpers.js'

const S = Serdes.String()
const L = Serdes.Long()

/**
 * DSL WordCount (groupBy -> repartition topic -> count into a timestamped store) on two
 * instances: the store's partitions are those of the prefixed repartition topic.
 */
describe('Interactive queries on a DSL count fed by a repartition topic (two instances, real broker)', function () {
  this.timeout(120000)

  it('queryMetadataForKey finds the owner through the repartition topic; keyValueStore() and timestampedKeyValueStore() views; HTTP on both', async () => {
    const prefix = unique('iqdsl')
    await createTopics([{ topic: `${prefix}-in`, numPartitions: 4 }])
    const build = () => {
      const builder = new StreamsBuilder()
      builder
        .stream<string, string>(`${prefix}-in`, Consumed.with(S, S))
        .flatMapValues(value => value.split(' '))
        .groupBy((_key, word) => word, Grouped.with(S, S))
        .count(Materialized.as<string, number>('word-counts').withKeySerde(S).withValueSerde(L))
      return builder.build()
    }
    const dirs = [await tempDir('kstreams-iqdsl'), await tempDir('kstreams-iqdsl')]
    const ports = [await freePort(), await freePort()]
    const instances = ports.map(
      (port, i) =>
        new KafkaStreams(
          build(),
          {
            applicationId: `${prefix}-app`,
            bootstrapServers: bootstrapServers(),
            stateDir: dirs[i]!.path,
            applicationServer: `127.0.0.1:${port}`,
            commitIntervalMs: 200,
            sessionTimeoutMs: 6000,
            heartbeatIntervalMs: 1000,
            defaultKeySerde: S,
            defaultValueSerde: S
          },
          { client: testClient() }
        )
    )
    const servers = instances.map(s => new InteractiveQueryServer(s, { keySerializer: S }))
    try {
      for (const s of servers) await s.start()
      for (const s of instances) await s.start()
      await waitFor(
        'both RUNNING with the same view',
        () => instances.every(s => s.state() === 'RUNNING' && s.metadataForAllStreamsClients().length === 2),
        90000
      )
      const words = Array.from({ length: 40 }, (_, i) => `w${i}`)
      const expected = new Map(words.map((w, i) => [w, 1 + (i % 3)]))
      await produce(
        `${prefix}-in`,
        words.flatMap(w => Array.from({ length: expected.get(w)! }, (_, j) => ({ key: `${w}-${j}`, value: w })))
      )
      const kv = QueryableStoreTypes.keyValueStore<string, number>()
      const localValue = (word: string): number | null => {
        for (const s of instances) {
          const meta = s.queryMetadataForKey('word-counts', word, S.serializer())
          if (meta.activeHost.port === ports[instances.indexOf(s)])
            return s.store({ storeName: 'word-counts', queryableStoreType: kv, partition: meta.partition }).get(word)
        }
        return null
      }
      await waitFor(
        'every word counted',
        () => {
          try {
            return words.every(w => localValue(w) === expected.get(w))
          } catch {
            return false
          }
        },
        60000
      )
      const all = instances[0]!.metadataForAllStreamsClients()
      const partitions = all.flatMap(m => m.topicPartitions).filter(tp => tp.topic.endsWith('-repartition'))
      expect(
        partitions.every(tp => tp.topic.startsWith(`${prefix}-app-`)),
        'prefixed repartition topic'
      ).to.equal(true)
      expect(partitions.map(tp => tp.partition).sort()).to.deep.equal([0, 1, 2, 3])
      for (const m of all) expect([...m.stateStoreNames]).to.include('word-counts')
      const ts = QueryableStoreTypes.timestampedKeyValueStore<string, number>()
      for (const w of words) {
        const metas = instances.map(s => s.queryMetadataForKey('word-counts', w, S.serializer()))
        expect(metas[1]).to.deep.equal(metas[0])
        const owner = instances[ports.indexOf(metas[0]!.activeHost.port)]!
        const other = instances.find(s => s !== owner)!
        expect(owner.store({ storeName: 'word-counts', queryableStoreType: ts, partition: metas[0]!.partition }).get(w)?.value).to.equal(
          expected.get(w)
        )
        expect(other.store({ storeName: 'word-counts', queryableStoreType: kv }).get(w)).to.equal(null)
        for (const port of ports) {
          const answer = await getJson(port, `/stores/word-counts/keys/${w}`)
          expect(answer.status).to.equal(200)
          expect(answer.body.value).to.equal(expected.get(w))
        }
      }
    } finally {
      for (const s of servers) await s.close()
      for (const s of instances) await s.close()
      for (const d of dirs) await d.remove()
    }
  })
})

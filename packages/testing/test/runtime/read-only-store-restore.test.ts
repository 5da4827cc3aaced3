/**
 * A read-only store (Topology.addReadOnlyStateStore, KIP-813) on KafkaStreams over the in-memory
 * Kafka: its source topic is its changelog, so a restarted instance restores the store from the
 * topic up to the committed offset (the update processor does not see those records again, as in
 * Kafka) and processes only what came after. No changelog topic is created. Modelled on Kafka
 * Streams' RestoreIntegrationTest.shouldRestoreStateFromSourceTopicForReadOnlyStore.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, QueryableStoreTypes, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, ProcessorContext, Record } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'
import { FAST } from './streams-harness.js'

const S = Serdes.String()
const TOPIC = 'read-only-input'
const PARTITIONS = 2

function topology(received: string[]): Topology {
  return new Topology().addReadOnlyStateStore(
    Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('store'), S, S),
    'readOnlySource',
    { keyDeserializer: S, valueDeserializer: S },
    TOPIC,
    'readOnlyProcessor',
    () => {
      let store: KeyValueStore<string, string>
      return {
        init(context: ProcessorContext<never, never>) {
          store = context.getStateStore('store')
        },
        process(record: Record<string, string>) {
          received.push(record.key)
          store.put(record.key, record.value)
        }
      }
    }
  )
}

describe('KafkaStreams on the in-memory Kafka: a read-only state store', function () {
  this.timeout(30_000)

  it('restores from its source topic up to the committed offset and processes only the rest', async () => {
    const kafka = new InMemoryKafka()
    const stateDir = await mkdtemp(join(tmpdir(), 'kstreams-read-only-'))
    const applicationId = `read-only-${process.pid}-${Date.now()}`
    kafka.createTopic(TOPIC, PARTITIONS)
    const produce = (from: number, to: number): void => {
      kafka.produce(
        TOPIC,
        Array.from({ length: to - from }, (_, i) => ({ key: `k${from + i}`, value: `v${from + i}` }))
      )
    }
    const committedTotal = (): number => {
      const group = kafka.group(applicationId)
      let total = 0
      for (let p = 0; p < PARTITIONS; p++) total += group?.committed.get(`${TOPIC}-${p}`)?.offset ?? 0
      return total
    }
    const storeKeys = (streams: KafkaStreams): string[] => {
      using all = streams.store({ storeName: 'store', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() }).all()
      return [...all].map(kv => kv.key).sort()
    }
    const config = { ...FAST, applicationId, stateDir }
    try {
      produce(0, 6)
      const firstReceived: string[] = []
      const first = new KafkaStreams(topology(firstReceived), config, { client: kafka.client() })
      await first.start()
      await eventually(() => committedTotal() === 6, 10_000)
      expect(firstReceived.sort()).to.deep.equal(['k0', 'k1', 'k2', 'k3', 'k4', 'k5'])
      await first.close()

      produce(6, 9)
      const secondReceived: string[] = []
      let restored = 0
      const second = new KafkaStreams(topology(secondReceived), config, { client: kafka.client() })
      second.setGlobalStateRestoreListener({
        onRestoreEnd: (_partition, storeName, total) => {
          if (storeName === 'store') restored += total
        }
      })
      await second.start()
      try {
        await eventually(() => committedTotal() === 9 && second.state() === 'RUNNING', 10_000)
        expect(restored, 'records restored from the source topic').to.equal(6)
        expect(secondReceived.sort(), 'records processed after the restore').to.deep.equal(['k6', 'k7', 'k8'])
        expect(storeKeys(second)).to.deep.equal(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8'])
        expect(kafka.topics().filter(t => t.includes('changelog'))).to.deep.equal([])
      } finally {
        await second.close()
      }
    } finally {
      kafka.close()
      await rm(stateDir, { recursive: true, force: true })
    }
  })
})

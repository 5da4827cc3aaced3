/**
 * The global stream thread checkpoints only what persistent global stores hold (Kafka's
 * GlobalStateManagerImpl leaves non-persistent stores out): an in-memory global store starts
 * empty after a restart and must read its topic from the beginning, not from a checkpoint.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, QueryableStoreTypes, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, ProcessorContext, Record } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { FAST } from './streams-harness.js'

const S = Serdes.String()

function topology(): Topology {
  return new Topology()
    .addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('G'), S, S).withLoggingDisabled(),
      'G-source',
      { keyDeserializer: S, valueDeserializer: S },
      'glob',
      'G-updater',
      () => {
        let store: KeyValueStore<string, string>
        return {
          init(ctx: ProcessorContext<never, never>) {
            store = ctx.getStateStore('G')
          },
          process(r: Record<string, string>) {
            store.put(r.key, r.value)
          }
        }
      }
    )
    .addSource('in', 'in', { keyDeserializer: S, valueDeserializer: S })
    .addSink('out', 'out', { keySerializer: S, valueSerializer: S }, 'in')
}

describe('KafkaStreams on the in-memory Kafka: an in-memory global store across a restart', function () {
  this.timeout(20_000)

  it('is bootstrapped from the beginning of its topic again, not from a checkpoint', async () => {
    const kafka = new InMemoryKafka()
    const stateDir = await mkdtemp(join(tmpdir(), 'kstreams-global-restart-'))
    for (const t of ['in', 'out', 'glob']) kafka.createTopic(t, 1)
    kafka.produce(
      'glob',
      Array.from({ length: 5 }, (_, i) => ({ key: `k${i}`, value: 'v' }))
    )
    const config = { ...FAST, applicationId: `global-restart-${process.pid}`, stateDir }
    const keys = (streams: KafkaStreams): string[] => {
      using all = streams.store({ storeName: 'G', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() }).all()
      return [...all].map(kv => kv.key)
    }
    try {
      const first = new KafkaStreams(topology(), config, { client: kafka.client() })
      await first.start()
      expect(keys(first)).to.deep.equal(['k0', 'k1', 'k2', 'k3', 'k4'])
      await first.close()
      const second = new KafkaStreams(topology(), config, { client: kafka.client() })
      await second.start()
      try {
        expect(keys(second)).to.deep.equal(['k0', 'k1', 'k2', 'k3', 'k4'])
      } finally {
        await second.close()
      }
    } finally {
      kafka.close()
      await rm(stateDir, { recursive: true, force: true })
    }
  })
})

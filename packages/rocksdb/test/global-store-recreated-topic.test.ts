/**
 * A persistent global store whose checkpoint its topic cannot have: the topic was deleted and
 * created again while the application was down, so the checkpointed position is beyond the new
 * topic's end. The global state is wiped and rebuilt from the new topic (before, the bootstrap
 * started at the old position: every record of the new topic was skipped, silently, and the
 * store kept the old topic's keys).
 */
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { KafkaStreams, QueryableStoreTypes, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, ProcessorContext, Record } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { RocksDBStores } from '../src/rocksdb-stores.js'
import { TempDirs } from './helpers/temp-dirs.js'

const S = Serdes.String()

function topology(): Topology {
  return new Topology()
    .addGlobalStore(
      Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('G'), S, S).withLoggingDisabled(),
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

describe('RocksDB global store: its topic recreated while the application was down', function () {
  this.timeout(20_000)
  const dirs = new TempDirs()
  afterEach(async () => {
    await dirs.cleanup()
  })

  it("the checkpoint beyond the new topic's end wipes the global store, which is rebuilt from the new topic", async () => {
    const kafka = new InMemoryKafka()
    const stateDir = await dirs.make()
    const applicationId = `global-recreated-${process.pid}`
    kafka.createTopic('in', 1)
    kafka.createTopic('out', 1)
    kafka.createTopic('glob', 1)
    kafka.produce(
      'glob',
      Array.from({ length: 5 }, (_, i) => ({ key: `old${i}`, value: 'v' }))
    )
    const config = { applicationId, stateDir, pollMs: 50, fetchMaxWaitMs: 50, sessionTimeoutMs: 1000, heartbeatIntervalMs: 100 }
    const contents = (streams: KafkaStreams): string[] => {
      const store = streams.store({ storeName: 'G', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() })
      using all = store.all()
      return [...all].map(kv => `${kv.key}=${kv.value}`)
    }
    try {
      const first = new KafkaStreams(topology(), config, { client: kafka.client() })
      await first.start()
      expect(contents(first)).to.deep.equal(['old0=v', 'old1=v', 'old2=v', 'old3=v', 'old4=v'])
      await first.close()
      expect(await readFile(join(stateDir, applicationId, 'global', '.checkpoint'), 'utf8')).to.equal('0\n1\nglob 0 5\n')

      kafka.deleteTopic('glob')
      kafka.createTopic('glob', 1)
      kafka.produce(
        'glob',
        Array.from({ length: 3 }, (_, i) => ({ key: `new${i}`, value: 'w' }))
      )

      const second = new KafkaStreams(topology(), config, { client: kafka.client() })
      await second.start()
      try {
        expect(contents(second)).to.deep.equal(['new0=w', 'new1=w', 'new2=w'])
      } finally {
        await second.close()
      }
      expect(await readFile(join(stateDir, applicationId, 'global', '.checkpoint'), 'utf8')).to.equal('0\n1\nglob 0 3\n')
    } finally {
      kafka.close()
    }
  })

  it('a global topic truncated under the running thread fails it (the client goes to ERROR) and wipes the global state, so a restart rebuilds it', async () => {
    const kafka = new InMemoryKafka()
    const stateDir = await dirs.make()
    const applicationId = `global-truncated-${process.pid}`
    for (const t of ['in', 'out', 'glob']) kafka.createTopic(t, 1)
    kafka.produce(
      'glob',
      Array.from({ length: 5 }, (_, i) => ({ key: `k${i}`, value: 'v' }))
    )
    const config = { applicationId, stateDir, pollMs: 50, fetchMaxWaitMs: 50, sessionTimeoutMs: 1000, heartbeatIntervalMs: 100 }
    const first = new KafkaStreams(topology(), config, { client: kafka.client() })
    try {
      await first.start()
      kafka.truncateLog('glob', 0, 2)
      kafka.produce('glob', { key: 'k9', value: 'new' })
      const deadline = Date.now() + 10_000
      while (first.state() !== 'ERROR' && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 10))
      expect(first.state()).to.equal('ERROR')
      await first.close()
      expect(existsSync(join(stateDir, applicationId, 'global')), 'the global state was wiped').to.equal(false)

      const second = new KafkaStreams(topology(), config, { client: kafka.client() })
      await second.start()
      try {
        const store = second.store({ storeName: 'G', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() })
        using all = store.all()
        expect([...all].map(kv => `${kv.key}=${kv.value}`)).to.deep.equal(['k0=v', 'k1=v', 'k9=new'])
      } finally {
        await second.close()
      }
    } finally {
      await first.close()
      kafka.close()
    }
  })
})

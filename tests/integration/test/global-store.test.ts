import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { KafkaStreams, QueryableStoreTypes, Serdes, Topology, type KeyValueStore, type ProcessorContext, type Record } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { bootstrapServers, createTopics, produce, readUntil, recordCount, tempDir, unique, waitFor, testClient } from './helpers.js'

const S = Serdes.String()

/** Clicks enriched with the user's name from a global store; a click whose user is missing fails the app. */
function enrichment(usersTopic: string, clicksTopic: string, outTopic: string, onFirstRecord: (usersInStore: number) => void): Topology {
  return new Topology()
    .addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('users'), S, S).withLoggingDisabled(),
      'users-source',
      { keyDeserializer: S, valueDeserializer: S },
      usersTopic,
      'users-updater',
      () => {
        let store: KeyValueStore<string, string>
        return {
          init(ctx: ProcessorContext<never, never>) {
            store = ctx.getStateStore('users')
          },
          process(r: Record<string, string>) {
            store.put(r.key, r.value)
          }
        }
      }
    )
    .addSource('clicks', clicksTopic, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'enrich',
      () => {
        let ctx: ProcessorContext<string, string>
        let users: KeyValueStore<string, string>
        let first = true
        return {
          init(c: ProcessorContext<string, string>) {
            ctx = c
            users = c.getStateStore('users')
          },
          process(r: Record<string, string>) {
            if (first) {
              first = false
              onFirstRecord(users.approximateNumEntries())
            }
            const name = users.get(r.key)
            if (name === null) throw new Error(`user ${r.key} is not in the global store`)
            ctx.forward(r.withValue(`${r.value} by ${name}`))
          }
        }
      },
      'clicks'
    )
    .addSink('out', outTopic, { keySerializer: S, valueSerializer: S }, 'enrich')
}

describe('Global stores on a real broker', function () {
  this.timeout(120000)

  it('are bootstrapped on every instance before the first stream record is processed, then kept current', async () => {
    const prefix = unique('global')
    const t = { users: `${prefix}-users`, clicks: `${prefix}-clicks`, out: `${prefix}-out` }
    await createTopics([
      { topic: t.users, numPartitions: 2 },
      { topic: t.clicks, numPartitions: 4 },
      { topic: t.out, numPartitions: 1 }
    ])
    const users = Array.from({ length: 300 }, (_, i) => ({ key: `u${i}`, value: `User ${i}` }))
    await produce(t.users, users)
    // Clicks are already waiting when the apps start: any lookup before the bootstrap would fail.
    await produce(
      t.clicks,
      users.map(u => ({ key: u.key, value: `click-${u.key}` }))
    )
    const dirs = [await tempDir('kstreams-ga'), await tempDir('kstreams-gb')]
    const atFirstRecord: number[] = []
    const restoredAtStart: number[] = []
    const instances = dirs.map(
      d =>
        new KafkaStreams(
          enrichment(t.users, t.clicks, t.out, n => atFirstRecord.push(n)),
          {
            applicationId: `${prefix}-app`,
            bootstrapServers: bootstrapServers(),
            stateDir: d.path,
            commitIntervalMs: 200,
            sessionTimeoutMs: 6000,
            heartbeatIntervalMs: 1000
          },
          { client: testClient() }
        )
    )
    try {
      for (const s of instances) {
        let restored = 0
        s.setGlobalStateRestoreListener({
          onRestoreEnd: (_tp, store, total) => {
            if (store === 'users') restored += total
          }
        })
        await s.start()
        // start() resolves only after the global store holds the whole topic.
        restoredAtStart.push(restored)
      }
      const inTopic = await recordCount(t.users)
      expect(inTopic).to.be.at.least(300)
      expect(restoredAtStart).to.deep.equal([inTopic, inTopic])
      const out = await readUntil(
        t.out,
        (_k, v) => v!.toString(),
        r => r.length >= 300,
        60000
      )
      expect(new Set(out).size).to.equal(300)
      for (const n of atFirstRecord) expect(n).to.equal(300)
      expect(out).to.include('click-u7 by User 7')
      expect(instances.map(s => s.state())).to.not.include('ERROR')
      // Later updates reach the global store of every instance.
      await produce(t.users, [{ key: 'late', value: 'Late User' }])
      // Not a fixed sleep: on a slow machine the global thread may take longer than that.
      const globalUsers = (s: KafkaStreams) =>
        s.store({ storeName: 'users', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() })
      await waitFor(
        'the late user in the global store of every instance',
        () => instances.every(s => globalUsers(s).get('late') === 'Late User'),
        60000
      )
      await produce(t.clicks, [{ key: 'late', value: 'click-late' }])
      const more = await readUntil(
        t.out,
        (_k, v) => v!.toString(),
        r => r.includes('click-late by Late User'),
        60000
      )
      expect(more).to.include('click-late by Late User')
      expect(instances.map(s => s.state())).to.not.include('ERROR')
    } finally {
      for (const s of instances) await s.close()
    }
    // The global store is in-memory: nothing is checkpointed (as Kafka), it reads its topic from the beginning at every start.
    for (const d of dirs) expect(existsSync(join(d.path, `${prefix}-app`, 'global', '.checkpoint'))).to.equal(false)
    for (const d of dirs) await d.remove()
  })
})

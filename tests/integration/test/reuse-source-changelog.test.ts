/**
 * topologyOptimization 'all' (reuse.ktable.source.topics) on a real broker: a materialized
 * table() creates no changelog topic; a new instance restores the store from the source topic up
 * to the committed offsets only, and processes what follows them (as Kafka Streams does).
 */
import { expect } from 'chai'
import { KafkaStreams, QueryableStoreTypes, Serdes, type StreamsConfig } from '@kstreams/core'
import { Consumed, Joined, Materialized, Produced, StreamsBuilder } from '@kstreams/dsl'
import { RocksDBDslStoreSuppliers } from '@kstreams/rocksdb'
import { bootstrapServers, createTopics, kafka, produce, readUntil, tempDir, unique, waitFor, testClient } from './helpers.js'

const S = Serdes.String()

describe('reuse.ktable.source.topics on a real broker', function () {
  this.timeout(180000)

  it('no changelog topic; a new instance restores the table from its source topic up to the committed offsets, then processes the rest', async () => {
    const prefix = unique('reusesrc')
    const [users, clicks, out] = [`${prefix}-users`, `${prefix}-clicks`, `${prefix}-out`]
    await createTopics([
      { topic: users, numPartitions: 2 },
      { topic: clicks, numPartitions: 2 },
      { topic: out, numPartitions: 1 }
    ])
    const build = () => {
      const builder = new StreamsBuilder()
      const table = builder.table(users, Consumed.with(S, S), Materialized.as<string, string>('users-store'))
      builder
        .stream(clicks, Consumed.with(S, S))
        .join(table, (click, user) => `${click}@${user}`, Joined.with(S, S, S))
        .to(out, Produced.with(S, S))
      return builder.build({ topologyOptimization: 'all' })
    }
    const dirs = await Promise.all([0, 1].map(async () => await tempDir('kstreams-reusesrc')))
    const config = (stateDir: string): StreamsConfig => ({
      applicationId: `${prefix}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir,
      commitIntervalMs: 200
    })
    const size = (streams: KafkaStreams): number => {
      try {
        return [
          ...streams.store({ storeName: 'users-store', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() }).all()
        ].length
      } catch {
        return 0
      }
    }
    const first = new KafkaStreams(build(), config(dirs[0]!.path), { client: testClient() })
    let second: KafkaStreams | undefined
    try {
      await first.start()
      await waitFor('first RUNNING', () => first.state() === 'RUNNING', 60000)
      await produce(
        users,
        Array.from({ length: 100 }, (_, i) => ({ key: `u${i}`, value: `name${i}` }))
      )
      await waitFor('100 users in the table', () => size(first) === 100, 60000)
      const admin = kafka().admin()
      await admin.connect()
      const topics = await admin.listTopics()
      await admin.disconnect()
      expect(topics.filter(t => t.startsWith(`${prefix}-app-`))).to.deep.equal([])
      // Leaving the group, so that the next instance is not held back until this one's session times out.
      await first.close({ leaveGroup: true })

      // Written while no instance runs: beyond the committed offsets, so processed, not restored.
      await produce(
        users,
        Array.from({ length: 50 }, (_, i) => ({ key: `u${100 + i}`, value: `name${100 + i}` }))
      )
      const restores: Array<{ topic: string; store: string; start: number; end: number }> = []
      let restored = 0
      second = new KafkaStreams(build(), config(dirs[1]!.path), { client: testClient() })
      second.setGlobalStateRestoreListener({
        onRestoreStart: (tp, store, start, end) => restores.push({ topic: tp.topic, store, start, end }),
        onRestoreEnd: (_tp, _store, total) => {
          restored += total
        }
      })
      await second.start()
      await waitFor('150 users in the table', () => second!.state() === 'RUNNING' && size(second!) === 150, 60000)
      expect(restores.map(r => `${r.topic}/${r.store}/${r.start}`)).to.deep.equal([`${users}/users-store/0`, `${users}/users-store/0`])
      expect(restores.reduce((n, r) => n + r.end, 0)).to.equal(100)
      expect(restored).to.equal(100)

      await produce(clicks, [
        { key: 'u7', value: 'home' },
        { key: 'u142', value: 'cart' }
      ])
      const joined = await readUntil(
        out,
        (_k, v) => v!.toString(),
        r => r.length >= 2,
        60000
      )
      expect(joined.sort()).to.deep.equal(['cart@name142', 'home@name7'])
    } finally {
      await first.close()
      await second?.close()
      for (const d of dirs) await d.remove()
    }
  })

  it('a standby of the table follows its source topic only up to the committed offsets; promoted, it restores the rest', async () => {
    const prefix = unique('reusesby')
    const users = `${prefix}-users`
    await createTopics([{ topic: users, numPartitions: 1 }])
    const build = () => {
      const builder = new StreamsBuilder()
      builder.table(users, Consumed.with(S, S), Materialized.as<string, string>('users-store'))
      return builder.build({ topologyOptimization: 'reuse.ktable.source.topics' })
    }
    const dirs = await Promise.all([0, 1].map(async () => await tempDir('kstreams-reusesby')))
    // Offsets are committed on revocation and on close only: a minute between commits.
    const config = (stateDir: string): StreamsConfig => ({
      applicationId: `${prefix}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir,
      commitIntervalMs: 60000,
      numStandbyReplicas: 1
    })
    const size = (streams: KafkaStreams): number => {
      try {
        return [
          ...streams.store({ storeName: 'users-store', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() }).all()
        ].length
      } catch {
        return 0
      }
    }
    const instances = dirs.map(d => new KafkaStreams(build(), config(d.path), { client: testClient() }))
    const [first, second] = instances as [KafkaStreams, KafkaStreams]
    try {
      await first.start()
      await waitFor('first RUNNING', () => first.state() === 'RUNNING', 60000)
      await produce(
        users,
        Array.from({ length: 100 }, (_, i) => ({ key: `u${i}`, value: `name${i}` }))
      )
      await waitFor('100 users', () => size(first) === 100, 60000)
      // The second instance joins: the revocation commits offset 100.
      await second.start()
      const standbyAt = (s: KafkaStreams): number | undefined => s.standbyProgress()[0]?.position
      await waitFor(
        'a standby at offset 100',
        () => (standbyAt(first) ?? standbyAt(second)) === 100 && first.state() === 'RUNNING' && second.state() === 'RUNNING',
        60000
      )
      const [standby, active] = standbyAt(first) !== undefined ? [first, second] : [second, first]
      await waitFor('the active has all 100 users', () => size(active) === 100, 60000)

      // Processed by the active, not committed: the standby must not apply them.
      await produce(
        users,
        Array.from({ length: 50 }, (_, i) => ({ key: `u${100 + i}`, value: `name${100 + i}` }))
      )
      await waitFor('the active has 150 users', () => size(active) === 150, 60000)
      await new Promise(resolve => setTimeout(resolve, 2000))
      expect(standbyAt(standby)).to.equal(100)
      expect(standby.standbyProgress()[0]!.updated).to.equal(100)

      // The active leaves (committing 150): the promoted standby restores 100..150 from the source topic.
      await active.close({ leaveGroup: true })
      await waitFor('the promoted standby has all 150 users', () => standby.state() === 'RUNNING' && size(standby) === 150, 60000)
    } finally {
      for (const s of instances) await s.close()
      for (const d of dirs) await d.remove()
    }
  })

  it('a persistent (RocksDB) table checkpoints the consumed offset: a restart restores nothing and goes on from there', async () => {
    const prefix = unique('reusecp')
    const users = `${prefix}-users`
    await createTopics([{ topic: users, numPartitions: 2 }])
    const build = () => {
      const builder = new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })
      builder.table(users, Consumed.with(S, S), Materialized.as<string, string>('users-store'))
      return builder.build({ topologyOptimization: 'all' })
    }
    const dir = await tempDir('kstreams-reusecp')
    const config: StreamsConfig = {
      applicationId: `${prefix}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir: dir.path,
      commitIntervalMs: 200
    }
    const size = (streams: KafkaStreams): number => {
      try {
        return [
          ...streams.store({ storeName: 'users-store', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() }).all()
        ].length
      } catch {
        return 0
      }
    }
    let streams = new KafkaStreams(build(), config, { client: testClient() })
    try {
      await streams.start()
      await produce(
        users,
        Array.from({ length: 100 }, (_, i) => ({ key: `u${i}`, value: `name${i}` }))
      )
      await waitFor('100 users', () => size(streams) === 100, 60000)
      // Leaving the group, so that the restarted instance is not held back until this one's session times out.
      await streams.close({ leaveGroup: true })

      await produce(
        users,
        Array.from({ length: 20 }, (_, i) => ({ key: `u${100 + i}`, value: `name${100 + i}` }))
      )
      const restores: Array<{ start: number; end: number }> = []
      streams = new KafkaStreams(build(), config, { client: testClient() })
      streams.setGlobalStateRestoreListener({ onRestoreStart: (_tp, _store, start, end) => restores.push({ start, end }) })
      await streams.start()
      await waitFor('120 users', () => streams.state() === 'RUNNING' && size(streams) === 120, 60000)
      // Both partitions start restoring at the checkpoint (the consumed offset + 1) and end at the committed offset: nothing to read.
      expect(restores).to.have.length(2)
      expect(restores.every(r => r.start === r.end && r.start > 0)).to.equal(true)
      expect(restores.reduce((n, r) => n + r.end, 0)).to.equal(100)
    } finally {
      await streams.close()
      await dir.remove()
    }
  })
})

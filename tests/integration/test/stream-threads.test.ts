/**
 * Stream threads at run time on a real broker (Kafka's addStreamThread / removeStreamThread /
 * metadataForLocalThreads, and pause / resume): a thread added joins the group and takes tasks; a thread removed
 * commits, leaves, and its tasks move; counts stay exact throughout; thread names reuse the
 * smallest free index.
 */
import { expect } from 'chai'
import { KafkaStreams, QueryableStoreTypes, Serdes, type ThreadMetadata } from '@kstreams/core'
import { Consumed, Grouped, Materialized, StreamsBuilder } from '@kstreams/dsl'
import { bootstrapServers, createTopics, produce, tempDir, unique, waitFor, testClient } from './helpers.js'

const S = Serdes.String()

describe('Adding and removing stream threads at run time (real broker)', function () {
  this.timeout(180000)

  it('addStreamThread / removeStreamThread rebalance the tasks; metadataForLocalThreads shows them; no count is lost', async () => {
    const prefix = unique('threads')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 4 }])
    const builder = new StreamsBuilder()
    builder
      .stream<string, string>(input, Consumed.with(S, S))
      .groupByKey(Grouped.with(S, S))
      .count(Materialized.as<string, number>('counts').withKeySerde(S))
    const dir = await tempDir('kstreams-threads')
    const streams = new KafkaStreams(
      builder.build(),
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: dir.path, commitIntervalMs: 200 },
      { client: testClient() }
    )
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`)
    let sent = 0
    const sendRound = async (): Promise<void> => {
      await produce(
        input,
        keys.map(key => ({ key, value: 'x' }))
      )
      sent++
    }
    const counted = (): boolean => {
      try {
        const store = streams.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() })
        return keys.every(k => store.get(k) === sent)
      } catch {
        return false
      }
    }
    const settled = (threads: number): boolean => {
      if (streams.state() !== 'RUNNING') return false
      const meta = streams.metadataForLocalThreads()
      return (
        meta.length === threads &&
        meta.every(t => t.threadState === 'RUNNING' && t.activeTasks.length > 0) &&
        meta.flatMap(t => t.activeTasks).length === 4
      )
    }
    const tasksOf = (meta: ThreadMetadata[]): string[] => meta.flatMap(t => t.activeTasks.map(a => a.taskId.toString())).sort()
    try {
      expect(await streams.addStreamThread()).to.equal(undefined)
      await streams.start()
      await waitFor('one thread with every task', () => settled(1), 60000)
      const [one] = streams.metadataForLocalThreads()
      expect(one).to.deep.include({
        threadName: 'StreamThread-1',
        mainConsumerClientId: `${prefix}-app-StreamThread-1-consumer`,
        adminClientId: `${prefix}-app-StreamThread-1-admin`
      })
      expect(tasksOf([one!])).to.deep.equal(['0_0', '0_1', '0_2', '0_3'])
      await sendRound()
      await waitFor('round 1 counted', counted, 60000)
      await waitFor(
        'committed offsets reported',
        () =>
          streams
            .metadataForLocalThreads()[0]!
            .activeTasks.reduce((n, t) => n + [...t.committedOffsets.values()].reduce((a, b) => a + b, 0), 0) === 40,
        60000
      )

      expect(await streams.addStreamThread()).to.equal('StreamThread-2')
      await waitFor('two threads sharing the tasks', () => settled(2), 60000)
      expect(tasksOf(streams.metadataForLocalThreads())).to.deep.equal(['0_0', '0_1', '0_2', '0_3'])
      await sendRound()
      await waitFor('round 2 counted', counted, 60000)

      expect(await streams.removeStreamThread()).to.equal('StreamThread-1')
      await waitFor('one thread left with every task', () => settled(1), 60000)
      expect(streams.metadataForLocalThreads()[0]!.threadName).to.equal('StreamThread-2')
      await sendRound()
      await waitFor('round 3 counted', counted, 60000)

      // The smallest free index is reused.
      expect(await streams.addStreamThread()).to.equal('StreamThread-1')
      await waitFor('two threads again', () => settled(2), 60000)
      await sendRound()
      await waitFor('round 4 counted', counted, 60000)
    } finally {
      await streams.close()
      await dir.remove()
    }
    expect(await streams.addStreamThread()).to.equal(undefined)
    expect(await streams.removeStreamThread()).to.equal(undefined)
    // Dead threads are not reported.
    expect(streams.metadataForLocalThreads()).to.deep.equal([])
  })

  it('pause() stops processing (also from before start) and resume() continues where it stopped', async () => {
    const prefix = unique('pause')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 2 }])
    const builder = new StreamsBuilder()
    builder
      .stream<string, string>(input, Consumed.with(S, S))
      .groupByKey(Grouped.with(S, S))
      .count(Materialized.as<string, number>('counts').withKeySerde(S))
    const dir = await tempDir('kstreams-pause')
    const streams = new KafkaStreams(
      builder.build(),
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: dir.path, commitIntervalMs: 200 },
      { client: testClient() }
    )
    const count = (key: string): number | null => {
      try {
        return streams.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).get(key)
      } catch {
        return null
      }
    }
    try {
      streams.pause()
      expect(streams.isPaused()).to.equal(true)
      await produce(input, [
        { key: 'a', value: 'x' },
        { key: 'b', value: 'x' }
      ])
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await new Promise(resolve => setTimeout(resolve, 1500))
      expect([count('a'), count('b')]).to.deep.equal([null, null])
      streams.resume()
      await waitFor('a and b counted', () => count('a') === 1 && count('b') === 1, 60000)

      streams.pause()
      await produce(input, [
        { key: 'a', value: 'x' },
        { key: 'a', value: 'x' }
      ])
      await new Promise(resolve => setTimeout(resolve, 1500))
      expect(count('a')).to.equal(1)
      expect(streams.state()).to.equal('RUNNING')
      streams.resume()
      expect(streams.isPaused()).to.equal(false)
      await waitFor('a counted three times', () => count('a') === 3, 60000)
    } finally {
      await streams.close()
      await dir.remove()
    }
  })
})

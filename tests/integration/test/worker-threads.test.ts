/**
 * Stream threads on worker threads (KafkaStreams.onWorkerThreads) on a real broker: each thread
 * builds the application from its module on its own worker thread (the output carries the
 * worker's thread id), the threads share the tasks through the group, counts stay exact, and
 * thread metadata, metrics, state changes and the uncaught-exception handler reach the main
 * thread, and interactive queries (store() and IQv2 query()) read the workers' stores. What
 * worker threads do not support fails with a typed error naming it.
 */
import { expect } from 'chai'
import { threadId } from 'node:worker_threads'
import { join } from 'node:path'
import { existsSync, readFileSync } from 'node:fs'
import type { KafkaStreamsState } from '@kstreams/core'
import { createTopics, produce, readUntil, tempDir, unique, waitFor } from './helpers.js'
import { countAppModule, type BudgetLine, type CountAppSpec } from './fixtures/worker-threads/count-app.js'

/** The latest `count@threadId` output per key, once every key counts at least `expected`. */
async function latestCounts(
  topic: string,
  keys: readonly string[],
  expected: number
): Promise<Map<string, { count: number; thread: number }>> {
  const latest = new Map<string, { count: number; thread: number }>()
  await readUntil(
    topic,
    (key, value) => {
      const [count, thread] = value!.toString().split('@').map(Number)
      latest.set(key!.toString(), { count: count!, thread: thread! })
      return key
    },
    () => keys.every(k => (latest.get(k)?.count ?? 0) >= expected),
    90_000
  )
  return latest
}

/**
 * @kstreams/core as the application modules see it. Mocha loads this file through tsx's CommonJS
 * hook, while the modules are imported as ES modules (a second instance of the package, whose
 * Topology this one's KafkaStreams does not know), so the test uses the ES instance too, as an
 * ES application does.
 */
const core = async (): Promise<typeof import('@kstreams/core')> => await import('@kstreams/core')

describe('Stream threads on worker threads (real broker)', function () {
  this.timeout(180_000)

  async function setUp(prefix: string, extra: Partial<CountAppSpec> = {}): Promise<{ spec: CountAppSpec; remove: () => Promise<void> }> {
    const input = `${prefix}-in`
    const output = `${prefix}-out`
    await createTopics([
      { topic: input, numPartitions: 4 },
      { topic: output, numPartitions: 1 }
    ])
    const dir = await tempDir(prefix)
    return {
      spec: { applicationId: `${prefix}-app`, input, output, stateDir: dir.path, threads: 2, ...extra },
      remove: dir.remove
    }
  }

  it('two worker threads share the tasks and each processes on its own thread; metadata, metrics and states reach the main thread', async () => {
    const {
      InvalidStateStoreError,
      KafkaStreams,
      KeyQuery,
      KeyValue,
      QueryableStoreTypes,
      RangeQuery,
      Serdes,
      StateQueryRequest,
      TimestampedKeyQuery,
      ValueAndTimestamp
    } = await core()
    const { spec, remove } = await setUp(unique('workers'))
    const streams = await KafkaStreams.onWorkerThreads(countAppModule(spec))
    const states: KafkaStreamsState[] = []
    streams.setStateListener(to => states.push(to))
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`)
    try {
      await streams.start()
      await waitFor(
        'two running threads with every task',
        () => {
          const meta = streams.metadataForLocalThreads()
          return (
            streams.state() === 'RUNNING' &&
            meta.length === 2 &&
            meta.every(t => t.threadState === 'RUNNING' && t.activeTasks.length > 0) &&
            meta.flatMap(t => t.activeTasks).length === 4
          )
        },
        90_000
      )
      const meta = streams.metadataForLocalThreads()
      expect(meta.map(t => t.threadName).sort()).to.deep.equal(['StreamThread-1', 'StreamThread-2'])
      expect(meta.flatMap(t => t.activeTasks.map(a => a.taskId.toString())).sort()).to.deep.equal(['0_0', '0_1', '0_2', '0_3'])
      expect(meta[0]!.mainConsumerClientId).to.match(/-StreamThread-\d-consumer$/)

      for (let round = 0; round < 5; round++)
        await produce(
          spec.input,
          keys.map(key => ({ key, value: 'x' }))
        )
      const latest = await latestCounts(spec.output, keys, 5)
      expect(keys.filter(k => latest.get(k)?.count !== 5)).to.deep.equal([])
      const threads = new Set([...latest.values()].map(v => v.thread))
      expect(threads.size, `worker thread ids seen: ${[...threads].join(', ')}`).to.equal(2)
      expect(threads.has(threadId)).to.equal(false)

      // Each worker reports its metrics every second; together they counted every record.
      const processedBy = (thread: string): number =>
        streams
          .metrics()
          .filter(m => m.name === 'process-total' && m.group === 'stream-thread-metrics' && m.tags['thread-id']?.endsWith(thread) === true)
          .reduce((sum, m) => sum + m.value, 0)
      await waitFor(
        'the metrics of both threads count every record',
        () =>
          processedBy('StreamThread-1') > 0 &&
          processedBy('StreamThread-2') > 0 &&
          processedBy('StreamThread-1') + processedBy('StreamThread-2') === 200,
        10_000
      )

      // Interactive queries read the workers' stores: each call runs on the worker that owns the partition.
      const counts = streams.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() })
      expect(keys.map(k => counts.get(k))).to.deep.equal(keys.map(() => 5))
      expect(counts.get('missing')).to.equal(null)
      expect(counts.approximateNumEntries()).to.equal(40)
      const all = [...counts.all()]
      expect(all.every(kv => kv instanceof KeyValue)).to.equal(true)
      expect(all.map(kv => kv.key).sort()).to.deep.equal([...keys].sort())
      expect([...counts.prefixScan('k1', Serdes.String().serializer())].map(kv => kv.key).sort()).to.deep.equal(
        ['k1', ...Array.from({ length: 10 }, (_, i) => `k1${i}`)].sort()
      )
      const stamped = streams
        .store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.timestampedKeyValueStore<string, number>() })
        .get('k7')
      expect(stamped).to.be.instanceOf(ValueAndTimestamp)
      expect(stamped!.value).to.equal(5)
      // One partition: only the worker that owns it is asked; the key is in exactly one partition.
      const partitionStore = (partition: number) =>
        streams.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>(), partition })
      expect([0, 1, 2, 3].map(p => partitionStore(p).get('k3')).filter(v => v !== null)).to.deep.equal([5])
      expect([0, 1, 2, 3].map(p => [...partitionStore(p).all()].length).reduce((a, b) => a + b, 0)).to.equal(40)
      // The wrong kind of store is the same typed error as on one thread.
      expect(() => streams.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.windowStore() }).fetchAll(0, 1)).to.throw(
        InvalidStateStoreError,
        /windowStore does not accept/
      )
      // IQv2: every partition answers from its worker; a range query's iterators cross too.
      const key = streams.query(StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('k9')))
      expect([...key.partitionResults.keys()].sort()).to.deep.equal([0, 1, 2, 3])
      expect(key.onlyPartitionResult()?.getResult()).to.equal(5)
      const stampedKey = streams.query(StateQueryRequest.inStore('counts').withQuery(TimestampedKeyQuery.withKey<string, number>('k9')))
      expect(stampedKey.onlyPartitionResult()?.getResult()).to.be.instanceOf(ValueAndTimestamp)
      const range = streams.query(StateQueryRequest.inStore('counts').withQuery(RangeQuery.withNoBounds<string, number>()))
      const ranged = [...range.partitionResults.values()].flatMap(r => [...r.getResult()])
      expect(ranged.map(kv => kv.key).sort()).to.deep.equal([...keys].sort())
      expect(ranged.every(kv => kv.value === 5)).to.equal(true)
    } finally {
      await streams.close()
      await remove()
    }
    expect(streams.state()).to.equal('NOT_RUNNING')
    expect(states).to.include('RUNNING')
    expect(streams.metadataForLocalThreads()).to.deep.equal([])
  })

  /**
   * Starts the count app whose first record with key `keys[0]` kills its thread (`fault`), under
   * REPLACE_THREAD, sends `keys` once and waits until every key counted; returns the handler's errors.
   */
  async function replacedAfter(
    fault: 'poisonMarker' | 'crashMarker',
    threads: number,
    keys: readonly string[],
    body: (streams: import('@kstreams/core').KafkaStreams, spec: CountAppSpec, errors: Error[]) => Promise<void>
  ): Promise<void> {
    const { KafkaStreams } = await core()
    const prefix = unique(`workers-${fault}`)
    const dir = await tempDir(`${prefix}-marker`)
    const { spec, remove } = await setUp(prefix, { threads, [fault]: join(dir.path, 'done') })
    const streams = await KafkaStreams.onWorkerThreads(countAppModule(spec))
    const errors: Error[] = []
    streams.setUncaughtExceptionHandler(error => {
      errors.push(error)
      return 'REPLACE_THREAD'
    })
    try {
      await streams.start()
      await produce(
        spec.input,
        keys.map(key => ({ key, value: 'x' }))
      )
      // At least once: the records the dead thread processed since its last commit count again.
      const latest = await latestCounts(spec.output, keys, 1)
      expect(keys.filter(k => (latest.get(k)?.count ?? 0) < 1)).to.deep.equal([])
      expect(errors).to.have.length(1)
      await body(streams, spec, errors)
    } finally {
      await streams.close()
      await remove()
      await dir.remove()
    }
  }

  it('a stream thread that dies on its worker is replaced under REPLACE_THREAD, and no record is lost', async () => {
    const { StreamsError } = await core()
    const keys = ['poison', ...Array.from({ length: 20 }, (_, i) => `k${i}`)]
    await replacedAfter('poisonMarker', 1, keys, async (streams, _spec, errors) => {
      expect(errors[0]).to.be.instanceOf(StreamsError)
      expect(errors[0]!.message).to.match(/poison record on thread/)
      await waitFor('the replacement runs', () => streams.state() === 'RUNNING', 60_000)
      expect(streams.metadataForLocalThreads().map(t => t.threadName)).to.deep.equal(['StreamThread-1'])
    })
  })

  it('a worker thread that dies (process.exit) is replaced under REPLACE_THREAD; its task locks are let go and no record is lost', async () => {
    const keys = ['crash', ...Array.from({ length: 40 }, (_, i) => `k${i}`)]
    await replacedAfter('crashMarker', 2, keys, async (streams, spec, errors) => {
      expect(errors[0]!.message).to.match(/The worker thread of StreamThread-\d died: exit code 7/)
      // The replacement takes the dead worker's tasks: their directory locks were let go.
      await waitFor(
        'two running threads with every task again',
        () => {
          const meta = streams.metadataForLocalThreads()
          return (
            streams.state() === 'RUNNING' &&
            meta.length === 2 &&
            meta.every(t => t.threadState === 'RUNNING') &&
            meta.flatMap(t => t.activeTasks).length === 4
          )
        },
        90_000
      )
      const rest = keys.slice(1)
      await produce(
        spec.input,
        rest.map(key => ({ key, value: 'x' }))
      )
      const after = await latestCounts(spec.output, rest, 2)
      expect(rest.filter(k => (after.get(k)?.count ?? 0) < 2)).to.deep.equal([])
    })
  })

  it('a worker that cannot build the app fails start(); the other, waiting at the start gate, is let go and closed', async () => {
    const { KafkaStreams, StreamsError } = await core()
    const prefix = unique('workers-build')
    const dir = await tempDir(`${prefix}-marker`)
    const { spec, remove } = await setUp(prefix, { failBuildMarker: join(dir.path, 'failed') })
    const streams = await KafkaStreams.onWorkerThreads(countAppModule(spec))
    const began = Date.now()
    try {
      const error = await streams.start().catch((e: unknown) => e)
      expect(error).to.be.instanceOf(StreamsError)
      expect((error as Error).message).to.match(/the app cannot be built on worker thread/)
      expect(streams.state()).to.equal('ERROR')
    } finally {
      await streams.close()
      await remove()
      await dir.remove()
    }
    // The ready worker did not sit out the gate's 60 s.
    expect(Date.now() - began).to.be.below(30_000)
    expect(streams.metadataForLocalThreads()).to.deep.equal([])
  })

  it('a module without a default export is a typed error naming it', async () => {
    const { KafkaStreams, StreamsError } = await core()
    const noDefault = await KafkaStreams.onWorkerThreads(new URL('./helpers.ts', import.meta.url)).catch((e: unknown) => e)
    expect(noDefault).to.be.instanceOf(StreamsError)
    expect((noDefault as Error).message).to.match(/helpers\.ts has no default export/)
  })

  it('global stores: each worker joins against its own copy, bootstrapped before it processes; queries read one; a failed global thread fails the client', async () => {
    const { KafkaStreams, KeyQuery, QueryableStoreTypes, StateQueryRequest } = await core()
    const globalTopic = unique('workers-global-table')
    await createTopics([{ topic: globalTopic, numPartitions: 2 }])
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`)
    await produce(
      globalTopic,
      keys.map(key => ({ key, value: `label-${key}` }))
    )
    const { spec, remove } = await setUp(unique('workers-global'), { globalTopic })
    const streams = await KafkaStreams.onWorkerThreads(countAppModule(spec))
    try {
      await streams.start()
      await waitFor(
        'two running threads sharing the tasks',
        () => streams.state() === 'RUNNING' && streams.metadataForLocalThreads().filter(t => t.activeTasks.length > 0).length === 2,
        90_000
      )
      await produce(
        spec.input,
        keys.map(key => ({ key, value: 'x' }))
      )
      const labelled = new Map<string, { thread: string; label: string }>()
      await readUntil(
        spec.output,
        (key, value) => {
          const [, thread, label] = value!.toString().split('@')
          labelled.set(key!.toString(), { thread: thread!, label: label! })
          return key
        },
        () => labelled.size === keys.length,
        90_000
      )
      // Every record found its label, on both workers.
      expect(keys.filter(k => labelled.get(k)?.label !== `label-${k}`)).to.deep.equal([])
      expect(new Set([...labelled.values()].map(v => v.thread)).size).to.equal(2)
      // Each worker keeps its copy in its own directory, with its own global thread; the main thread keeps none.
      const appDir = join(spec.stateDir, spec.applicationId)
      expect([
        existsSync(join(appDir, 'global', 'rocksdb', 'labels')),
        existsSync(join(appDir, 'global-2', 'rocksdb', 'labels'))
      ]).to.deep.equal([true, true])
      const globalThreads = (): string[] =>
        [...new Set(streams.metrics().map(m => m.tags['thread-id'] ?? ''))].filter(id => id.includes('GlobalStreamThread')).sort()
      await waitFor('both workers report their global thread', () => globalThreads().length === 2, 10_000)
      expect(globalThreads()).to.deep.equal([`${spec.applicationId}-GlobalStreamThread-1`, `${spec.applicationId}-GlobalStreamThread-2`])
      // Interactive queries read a worker's copy.
      const table = streams.store({ storeName: 'labels', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() })
      expect(table.get('k7')).to.equal('label-k7')
      expect(table.approximateNumEntries()).to.equal(20)
      // IQv2 answers for a global store as on one thread: UNKNOWN_QUERY_TYPE (KAFKA-13523).
      const result = streams.query(StateQueryRequest.inStore('labels').withQuery(KeyQuery.withKey<string, string>('k7')))
      expect(result.globalResult?.getFailureReason()).to.equal('UNKNOWN_QUERY_TYPE')
      // An update reaches both copies: the next records of either worker carry it.
      await produce(
        globalTopic,
        keys.map(key => ({ key, value: `new-${key}` }))
      )
      await waitFor('the table update in the query', () => table.get('k7') === 'new-k7', 30_000)
      await new Promise(resolve => setTimeout(resolve, 1000))
      await produce(
        spec.input,
        keys.map(key => ({ key, value: 'x' }))
      )
      const relabelled = new Map<string, string>()
      await readUntil(
        spec.output,
        (key, value) => {
          const [count, , label] = value!.toString().split('@')
          if (count === '2') relabelled.set(key!.toString(), label!)
          return key
        },
        () => relabelled.size === keys.length,
        90_000
      )
      expect(keys.filter(k => relabelled.get(k) !== `new-${k}`)).to.deep.equal([])
      // A global record no worker can read fails its global thread, and the client, as on one thread.
      await produce(globalTopic, [{ key: 'k0', value: 'poison' }])
      await waitFor('the client in ERROR', () => streams.state() === 'ERROR', 30_000)
    } finally {
      await streams.close()
      await remove()
    }
  })

  it("the RocksDB memory budget is the instance's: each worker gets rocksdbBlockCacheBytes / numStreamThreads (and so the write buffers), which add up to what was configured", async () => {
    const { KafkaStreams } = await core()
    const MiB = 1024 * 1024
    const prefix = unique('workers-budget')
    const logDir = await tempDir(`${prefix}-log`)
    const log = join(logDir.path, 'budget.jsonl')
    const { spec, remove } = await setUp(prefix, { rocksdbBudget: { blockCacheBytes: 8 * MiB, writeBufferBytes: 6 * MiB, log } })
    const streams = await KafkaStreams.onWorkerThreads(countAppModule(spec))
    const lines = (): BudgetLine[] =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(line => line !== '')
            .map(line => JSON.parse(line) as BudgetLine)
        : []
    const byThread = new Map<number, BudgetLine[]>()
    try {
      await streams.start()
      await waitFor('both workers open their stores', () => new Set(lines().map(l => l.thread)).size === 2, 90_000)
      for (const line of lines()) byThread.set(line.thread, [...(byThread.get(line.thread) ?? []), line])
    } finally {
      await streams.close()
      await Promise.all([remove(), logDir.remove()])
    }
    expect(byThread.has(threadId)).to.equal(false)
    // Each worker's config sizes its budget with its share; the shares add up to the instance's budget.
    const shares = [...byThread.values()].map(own => [...new Set(own.map(l => `${l.configBlockCacheBytes}/${l.configWriteBufferBytes}`))])
    expect(shares).to.deep.equal([[`${4 * MiB}/${3 * MiB}`], [`${4 * MiB}/${3 * MiB}`]])
    // The first DB of a worker takes all of its share (below the per-DB maximum of 16 MiB): no DB gets more.
    const largest = [...byThread.values()].map(own => ({
      cacheSize: Math.max(...own.map(l => l.cacheSize)),
      memtableMemoryBudget: Math.max(...own.map(l => l.memtableMemoryBudget))
    }))
    expect(largest).to.deep.equal([
      { cacheSize: 4 * MiB, memtableMemoryBudget: 2 * MiB },
      { cacheSize: 4 * MiB, memtableMemoryBudget: 2 * MiB }
    ])
    expect(largest.reduce((sum, l) => sum + l.cacheSize, 0)).to.equal(8 * MiB)
  })
})

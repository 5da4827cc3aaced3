/**
 * A clean restart under exactly_once_v2 reopens the RocksDB stores where the checkpoint left
 * them and restores only the tail of their changelogs. Under exactly-once a task directory with
 * state but without a checkpoint entry for a store is corrupted (it may hold aborted writes) and
 * wiped, so every logged persistent store must be in the checkpoint, a store that never wrote
 * with OFFSET_UNKNOWN (Kafka's ProcessorStateManager.checkpoint()); and a checkpoint temp file
 * left by a crash is not state.
 */
import { expect } from 'chai'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { KafkaStreams, QueryableStoreTypes, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, LogFn, Logger, ProcessorContext, Record, StateRestoreListener } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { RocksDBStores } from '../src/rocksdb-stores.js'
import { eventually } from './helpers/open-store.js'
import { TempDirs } from './helpers/temp-dirs.js'

const S = Serdes.String()
const L = Serdes.Long()
const RECORDS = 300

/** words -> a count per key in `A`; `B` (a RocksDB store too) is never written. */
function twoStores(): Topology {
  return new Topology()
    .addSource('Words', 'words', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'Count',
      () => {
        let a: KeyValueStore<string, number>
        return {
          init(ctx: ProcessorContext<never, never>) {
            a = ctx.getStateStore('A')
            ctx.getStateStore('B')
          },
          process(r: Record<string, string>) {
            a.put(r.key, (a.get(r.key) ?? 0) + 1)
          }
        }
      },
      'Words'
    )
    .addStateStore(Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('A'), S, L), 'Count')
    .addStateStore(Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('B'), S, L), 'Count')
}

/** Log lines, for the wipe warnings. */
function recordingLogger(lines: string[]): Logger {
  const log =
    (level: string): LogFn =>
    (first: string | object, message?: string): void => {
      lines.push(`${level}: ${typeof first === 'string' ? first : (message ?? '')}`)
    }
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), child: () => logger }
  return logger
}

describe('RocksDB under exactly_once_v2: a clean restart keeps the local state', function () {
  this.timeout(30_000)
  const dirs = new TempDirs()
  let kafka: InMemoryKafka
  let stateDir: string
  let applicationId: string
  beforeEach(async () => {
    kafka = new InMemoryKafka()
    kafka.createTopic('words', 1)
    stateDir = await dirs.make()
    applicationId = `eos-restart-${process.pid}`
  })
  afterEach(async () => {
    kafka.close()
    await dirs.cleanup()
  })

  function streams(restores: string[], logLines: string[]): KafkaStreams {
    const app = new KafkaStreams(
      twoStores(),
      {
        applicationId,
        stateDir,
        processingGuarantee: 'exactly_once_v2',
        commitIntervalMs: 100,
        pollMs: 50,
        fetchMaxWaitMs: 50,
        sessionTimeoutMs: 1000,
        heartbeatIntervalMs: 100
      },
      { client: kafka.client(), logger: recordingLogger(logLines) }
    )
    const listener: StateRestoreListener = {
      onRestoreStart: (_tp, store, start, end) => restores.push(`${store} from ${start} to ${end}`),
      onRestoreEnd: (_tp, store, total) => restores.push(`${store} restored ${total}`)
    }
    app.setGlobalStateRestoreListener(listener)
    return app
  }

  const countOf = (app: KafkaStreams, key: string): number | null =>
    app.store({ storeName: 'A', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).get(key)

  it('with a store that never wrote: it is checkpointed as OFFSET_UNKNOWN, and the restart restores only the tail of the other', async () => {
    const first = streams([], [])
    await first.start()
    kafka.produce(
      'words',
      Array.from({ length: RECORDS }, (_, i) => ({ key: `k${i}`, value: 'x' }))
    )
    await eventually(() => first.state() === 'RUNNING' && countOf(first, `k${RECORDS - 1}`) === 1)
    await first.close()
    const checkpoint = readFileSync(join(stateDir, applicationId, '0_0', '.checkpoint'), 'utf8').split('\n')
    const a = checkpoint.find(line => line.startsWith(`${applicationId}-A-changelog 0 `))
    const checkpointed = Number(a?.split(' ')[2])
    expect(checkpointed, 'A checkpointed at its last changelog record').to.be.at.least(RECORDS - 1)

    const restores: string[] = []
    const logLines: string[] = []
    const second = streams(restores, logLines)
    try {
      await second.start()
      await eventually(() => second.state() === 'RUNNING')
      expect(restores.filter(r => r.startsWith('A '))).to.deep.equal([
        `A from ${checkpointed + 1} to ${kafka.topic(`${applicationId}-A-changelog`).highWatermark(0)}`,
        'A restored 0'
      ])
      expect(
        restores.filter(r => r.startsWith('B ')),
        'B from the beginning of its (empty) changelog'
      ).to.deep.equal(['B from 0 to 0', 'B restored 0'])
      expect(logLines.filter(l => /corrupt|wiping/i.test(l))).to.deep.equal([])
      expect(checkpoint.slice(0, 2)).to.deep.equal(['0', '2'])
      expect(checkpoint).to.include(`${applicationId}-B-changelog 0 -4`)
      expect(countOf(second, 'k0')).to.equal(1)
      expect(countOf(second, `k${RECORDS - 1}`)).to.equal(1)
    } finally {
      await second.close()
    }
  })

  it('a checkpoint temp file a crash left in a task directory is deleted at start and does not count as state', async () => {
    const taskDir = join(stateDir, applicationId, '0_0')
    await mkdir(taskDir, { recursive: true })
    await writeFile(join(taskDir, '.checkpoint.4242.0.tmp'), '0\n1\n')
    const logLines: string[] = []
    const app = streams([], logLines)
    try {
      await app.start()
      await eventually(() => app.state() === 'RUNNING')
      expect(logLines.filter(l => /corrupt|wiping/i.test(l))).to.deep.equal([])
      expect(existsSync(taskDir)).to.equal(true)
      expect((await readdir(taskDir)).filter(name => name.endsWith('.tmp'))).to.deep.equal([])
    } finally {
      await app.close()
    }
  })
})

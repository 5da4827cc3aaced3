/**
 * The contenders of the store bench behind one small interface: the kstreams key-value store API
 * (metered layer with Buffer serdes over the in-memory or RocksDB bytes store), the raw
 * @nxtedition/rocksdb binding opened with the very options the RocksDB store chose, and a plain
 * sorted map.
 */
import { type KeyValue, Serdes, TaskId, resolveStreamsConfig } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier, KeyValueStore, StateStoreContext } from '@kstreams/core'
import { configsWithPrefix, defaultKeySerde, defaultValueSerde, StreamsMetricsRegistry } from '@kstreams/core/internal'
import { RocksDBStores } from '@kstreams/rocksdb'
import type { RocksDBOptions } from '@kstreams/rocksdb'
import { Stores } from '@kstreams/stores'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SortedMap } from './sorted-map.js'

export interface Target {
  readonly label: string
  put(key: Buffer, value: Buffer): void
  get(key: Buffer): Buffer | null | undefined
  /** Reads the entries with from <= key <= to; returns how many. */
  scan(from: Buffer, to: Buffer): number
  putAll(entries: ReadonlyArray<KeyValue<Buffer, Buffer>>): void
  /** What a task commit does: flush the store. */
  commit(): void
  close(): Promise<void>
}

export type TargetKind = 'kstreams in-memory' | 'sorted map' | 'kstreams rocksdb' | 'raw binding'

const noop = (): void => {}

function context(stateDir: string | undefined): StateStoreContext {
  const appConfigs = resolveStreamsConfig({ applicationId: 'store-bench' })
  return {
    applicationId: 'store-bench',
    taskId: new TaskId(0, 0),
    appConfigs,
    stateDir,
    appConfigsWithPrefix: prefix => configsWithPrefix(appConfigs, prefix),
    keySerde: () => defaultKeySerde(appConfigs),
    valueSerde: () => defaultValueSerde(appConfigs),
    metrics: () => new StreamsMetricsRegistry({ recordingLevel: appConfigs.metricsRecordingLevel }),
    recordMetadata: () => undefined,
    register: noop,
    changelogWriter: () => undefined
  }
}

async function kstreamsTarget(label: string, supplier: KeyValueBytesStoreSupplier, stateDir: string | undefined): Promise<Target> {
  const store: KeyValueStore<Buffer, Buffer> = Stores.keyValueStoreBuilder(supplier, Serdes.Buffer(), Serdes.Buffer()).build()
  await store.init(context(stateDir), store)
  return {
    label,
    put: (key, value) => {
      store.put(key, value)
    },
    get: key => store.get(key),
    scan(from, to) {
      let count = 0
      for (const _ of store.range(from, to)) count++
      return count
    },
    putAll: entries => {
      store.putAll(entries)
    },
    commit: () => {
      store.flush()
    },
    close: async () => {
      store.close()
      // Let the DB release its files before the directory goes.
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  }
}

function sortedMapTarget(): Target {
  const map = new SortedMap()
  return {
    label: 'sorted map',
    put: (key, value) => {
      map.set(key.toString('latin1'), value)
    },
    get: key => map.get(key.toString('latin1')),
    scan: (from, to) => map.range(from.toString('latin1'), to.toString('latin1'), noop),
    putAll: entries => {
      for (const e of entries) map.set(e.key.toString('latin1'), e.value)
    },
    commit: noop,
    close: async () => {}
  }
}

interface RawBatch {
  _put(k: Buffer, v: Buffer): void
  _writeSync(o: { sync: boolean }): void
  _closeSync(): void
}
interface RawIterator {
  _nextvSync(n: number): { rows: Buffer[]; finished: boolean }
  close(cb: () => void): void
}
interface RawDb {
  open(o: object): Promise<void>
  close(): Promise<void>
  batch(): RawBatch
  _getManySync(keys: Buffer[]): Array<Buffer | undefined>
  iterator(o: object): RawIterator
}

/** The binding used directly: a chained batch written at commit, sync reads, sync iteration. */
async function rawTarget(dir: string, options: RocksDBOptions, sync: boolean): Promise<Target> {
  const { RocksLevel } = createRequire(import.meta.url)('@nxtedition/rocksdb') as { RocksLevel: new (l: string, o: object) => RawDb }
  const db = new RocksLevel(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open({ ...options, createIfMissing: true })
  let batch = db.batch()
  let pending = 0
  return {
    label: 'raw binding',
    put: (key, value) => {
      batch._put(key, value)
      pending++
    },
    get: key => db._getManySync([key])[0],
    scan(from, to) {
      const iterator = db.iterator({ gte: from, lte: to })
      let count = 0
      for (;;) {
        const { rows, finished } = iterator._nextvSync(1000)
        count += rows.length / 2
        if (finished || rows.length === 0) break
      }
      iterator.close(noop)
      return count
    },
    putAll(entries) {
      for (const e of entries) batch._put(e.key, e.value)
      pending += entries.length
    },
    commit() {
      if (pending === 0) return
      batch._writeSync({ sync })
      batch._closeSync()
      batch = db.batch()
      pending = 0
    },
    close: async () => {
      batch._closeSync()
      await db.close()
    }
  }
}

/** Opens one contender in a fresh directory; `close()` removes the directory. */
export async function openTarget(kind: TargetKind, sync: boolean): Promise<Target> {
  if (kind === 'sorted map') return sortedMapTarget()
  if (kind === 'kstreams in-memory') return await kstreamsTarget(kind, Stores.inMemoryKeyValueStore('bench'), undefined)
  const dir = await mkdtemp(join(tmpdir(), 'kstreams-store-bench-'))
  let target: Target
  if (kind === 'kstreams rocksdb') {
    const supplier = RocksDBStores.persistentKeyValueStore('bench', { syncOnFlush: sync })
    target = await kstreamsTarget(kind, supplier, dir)
  } else {
    target = await rawTarget(join(dir, 'raw'), await storeOptions(dir), sync)
  }
  const close = target.close
  return {
    ...target,
    close: async () => {
      await close()
      await rm(dir, { recursive: true, force: true })
    }
  }
}

/** The RocksDB options the kstreams store opens with (captured through a config setter). */
async function storeOptions(dir: string): Promise<RocksDBOptions> {
  let captured: RocksDBOptions | undefined
  const supplier = RocksDBStores.persistentKeyValueStore('probe', {
    configSetter: {
      setConfig: (_name, options) => {
        captured = { ...options }
      }
    }
  })
  const store = supplier.get()
  await store.init(context(join(dir, 'probe')), store)
  store.close()
  return captured!
}

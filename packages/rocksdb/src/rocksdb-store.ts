/**
 * The RocksDB key-value bytes store (Kafka's RocksDBStore): one RocksDB instance in
 * `<taskDir>/rocksdb/<name>`, keys in unsigned byte order. Reads are synchronous (the binding's
 * sync paths). Writes collect in a write overlay that reads and iterators see, and go to RocksDB
 * as one batch at flush() (the commit), at close, or earlier when the overlay grows past
 * `maxPendingBytes`. flush() fsyncs the write-ahead log (unless `syncOnFlush` is off) whenever
 * anything reached RocksDB without an fsync since the last one (restore and standby batches,
 * early writes, range deletes), even with nothing pending: the checkpoint written after a flush
 * covers only durable data. Owns its lifecycle (created -> opening -> open -> closed, reopenable) and
 * the iterators it handed out, which it closes when it closes.
 */
import { IllegalStateError, InvalidStateStoreError, StreamsError } from '@kstreams/core'
import type { KeyValue, KeyValueBytesStore, KeyValueIterator, Serializer, StateStore, StateStoreContext } from '@kstreams/core'
import { validateStoreName } from '@kstreams/core/internal'
import type { NativeIteratorOptions } from './rocks-binding.js'
import { bytesToKey, prefixUpperBoundBytes } from '@kstreams/core/internal'
import { RocksDBDatabase } from './rocksdb-database.js'
import type { RocksDBDatabaseOptions } from './rocksdb-database.js'
import { RocksDBKeyValueIterator } from './rocksdb-key-value-iterator.js'
import { LeasedIterator } from './leased-iterator.js'
import type { RocksDBIteratorSource } from './rocksdb-key-value-iterator.js'
import { databaseOptions, resolveRocksDBStoreOptions } from './rocksdb-store-options.js'
import type { ResolvedRocksDBStoreOptions, RocksDBStoreOptions } from './rocksdb-store-options.js'
import { toStoreError } from './rocksdb-store-error.js'
import { prepareStoreDirectory, storeDirectory } from './store-directory.js'
import { EMPTY_SNAPSHOT, WriteOverlay } from './write-overlay.js'

type StoreState = 'created' | 'opening' | 'open' | 'closed'

const TRANSITIONS: Readonly<Record<StoreState, readonly StoreState[]>> = {
  created: ['opening', 'closed'],
  opening: ['open', 'closed'],
  open: ['closed'],
  closed: ['opening']
}

/** Up to this many keys, approximateNumEntries() counts exactly instead of estimating. */
const EXACT_COUNT_LIMIT = 1000

/**
 * The RocksDB key-value bytes store (Kafka's RocksDBStore): one RocksDB instance per store and task;
 * writes go to RocksDB as one batch at each flush (the commit).
 */
export class RocksDBStore implements KeyValueBytesStore {
  readonly name: string
  readonly persistent = true
  readonly #options: ResolvedRocksDBStoreOptions
  readonly #overlay = new WriteOverlay()
  readonly #openIterators = new Set<RocksDBKeyValueIterator>()
  #state: StoreState = 'created'
  #db: RocksDBDatabase | undefined
  #lease = { open: false }
  #iteratorSource: RocksDBIteratorSource
  #prefixTopic: string
  #closed: Promise<void> = Promise.resolve()
  #opening: Promise<void> = Promise.resolve()
  /** A write that failed off the calling path, rethrown by the next flush. */
  #failure: unknown
  /** Something was written to RocksDB without fsyncing its WAL since the last synced write. */
  #unsynced = false

  /**
   * How many iterators of RocksDB stores are open in this thread: made by a range read, fetch or
   * scan of any RocksDB store (key-value, window, session, versioned) and neither closed nor read
   * to their end. A window or session store's walk over its segments counts once, and once more
   * for the segment it is reading. A store closes its iterators when it closes. Open iterators
   * hold buffered rows and a snapshot of their DB, so a count that keeps rising between
   * processing steps is an iterator leak. A worker thread has a count of its own.
   */
  static get openIterators(): number {
    return LeasedIterator.open
  }

  constructor(name: string, options: RocksDBStoreOptions = {}) {
    this.name = validateStoreName(name)
    this.#options = resolveRocksDBStoreOptions(options)
    this.#prefixTopic = name
    this.#iteratorSource = this.#newIteratorSource(undefined)
  }

  /** Opens the DB in the task's state directory; rejects with a RocksDBStoreError when it cannot. */
  init(context: StateStoreContext, root: StateStore): Promise<void> {
    this.#transition('opening')
    let path: string
    let dbOptions: RocksDBDatabaseOptions
    try {
      path = storeDirectory(context.stateDir, this.name)
      dbOptions = databaseOptions(this.#options, context, this.name, path)
      context.register(root, records => {
        this.#restore(records)
      })
    } catch (err) {
      this.#state = 'closed'
      throw err
    }
    this.#prefixTopic = `${context.applicationId}-${this.name}-changelog`
    const opening = this.#closed
      .catch(() => {})
      .then(async () => {
        try {
          await prepareStoreDirectory(path)
        } catch (err) {
          throw toStoreError(err, this.name, path, 'creating the store directory', dbOptions.taskId)
        }
        return await RocksDBDatabase.open(dbOptions)
      })
      .then(
        db => {
          if (this.#state !== 'opening') {
            // Closed while opening: let go of the DB at once.
            this.#closed = db.close()
            this.#closed.catch(() => {})
            return
          }
          this.#db = db
          this.#lease = { open: true }
          this.#iteratorSource = this.#newIteratorSource(db)
          this.#state = 'open'
        },
        (err: unknown) => {
          if (this.#state === 'opening') this.#state = 'closed'
          throw err
        }
      )
    this.#opening = opening
    return opening
  }

  /**
   * Writes the pending writes to RocksDB as one batch, fsyncing the WAL unless configured off;
   * with nothing pending, still fsyncs it when earlier writes went without.
   */
  flush(): void {
    if (this.#state !== 'open') return
    this.#rethrowFailure()
    this.#db!.settle()
    this.#writePending(this.#options.syncOnFlush)
  }

  /**
   * @internal Deletes every key in [from, to), pending writes included, with one range
   * tombstone (how segmented stores drop expired segments). Open iterators keep their snapshot.
   */
  deleteRange(from: Buffer, to: Buffer): void {
    const db = this.#openDb()
    this.#writePending(false)
    db.deleteRange(from, to, err => {
      this.#failure ??= err
    })
    this.#unsynced = true
  }

  /**
   * Writes the pending writes, closes every open iterator and starts closing the DB. Idempotent.
   * The DB's files stay locked until `whenClosed()` resolves; reopening waits for that.
   */
  close(): void {
    if (this.#state === 'created') {
      this.#state = 'closed'
      return
    }
    if (this.#state === 'opening') {
      // The open finishes, then lets go of the DB at once; whenClosed() waits for both.
      this.#state = 'closed'
      this.#closed = this.#opening.then(
        () => this.#closed,
        () => {}
      )
      this.#closed.catch(() => {})
      return
    }
    if (this.#state !== 'open') return
    const db = this.#db!
    let failure = this.#failure
    this.#failure = undefined
    try {
      this.#writePending(this.#options.syncOnFlush)
    } catch (err) {
      failure ??= err
    }
    this.#lease.open = false
    for (const iterator of [...this.#openIterators]) iterator.close()
    this.#openIterators.clear()
    this.#overlay.clear()
    this.#db = undefined
    this.#state = 'closed'
    this.#closed = db.close()
    this.#closed.catch(() => {})
    if (failure !== undefined) throw failure
  }

  /** Resolves once the last close() has released the DB's files (rejects if closing failed). */
  whenClosed(): Promise<void> {
    return this.#closed
  }

  isOpen(): boolean {
    return this.#state === 'open'
  }

  get(key: Buffer): Buffer | null {
    const db = this.#openDb()
    if (this.#overlay.size !== 0) {
      const pending = this.#overlay.get(bytesToKey(key))
      if (pending !== undefined) return pending
    }
    return db.get(key) ?? null
  }

  /** `put(key, null)` deletes. */
  put(key: Buffer, value: Buffer | null): void {
    this.#openDb()
    this.#put(key, value)
  }

  putIfAbsent(key: Buffer, value: Buffer | null): Buffer | null {
    const old = this.get(key)
    if (old === null) this.#put(key, value)
    return old
  }

  putAll(entries: ReadonlyArray<KeyValue<Buffer, Buffer | null>>): void {
    this.#openDb()
    for (const entry of entries) this.#put(entry.key, entry.value)
  }

  delete(key: Buffer): Buffer | null {
    const old = this.get(key)
    if (old !== null) this.#put(key, null)
    return old
  }

  /** Keys in [from, to]; empty when from > to (by bytes). Undefined bounds are open. */
  range(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.#range(from, to, true)
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.#range(from, to, false)
  }

  all(): KeyValueIterator<Buffer, Buffer> {
    return this.#range(undefined, undefined, true)
  }

  reverseAll(): KeyValueIterator<Buffer, Buffer> {
    return this.#range(undefined, undefined, false)
  }

  /** Keys that start with the serialized prefix, ascending. */
  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<Buffer, Buffer> {
    this.#openDb()
    const raw = prefixKeySerializer.serialize(this.#prefixTopic, prefix)
    if (raw === null || raw === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": the prefix serialized to null`)
    }
    return this.#iterator(raw, prefixUpperBoundBytes(raw), true, true)
  }

  /**
   * Exact up to 1,000 entries (counted over a snapshot); beyond, RocksDB's estimate plus the
   * pending puts minus the pending deletes, which overwrites make approximate (as in Kafka Streams).
   */
  approximateNumEntries(): number {
    const db = this.#openDb()
    const overlay = this.#overlay
    const stored = db.estimateNumKeys()
    if (stored + overlay.size <= EXACT_COUNT_LIMIT) {
      const counted = this.#countUpTo(EXACT_COUNT_LIMIT)
      if (counted !== undefined) return counted
    }
    return Math.max(0, stored + overlay.size - 2 * overlay.deletes)
  }

  /** Counts the live keys, or gives up (undefined) past `limit`. */
  #countUpTo(limit: number): number | undefined {
    const iterator = this.#iterator(undefined, undefined, false, true)
    try {
      let count = 0
      while (!iterator.next().done) {
        if (++count > limit) return undefined
      }
      return count
    } finally {
      iterator.close()
    }
  }

  #rethrowFailure(): void {
    const failure = this.#failure
    if (failure === undefined) return
    this.#failure = undefined
    throw failure
  }

  #put(key: Buffer, value: Buffer | null): void {
    const overlay = this.#overlay
    overlay.set(bytesToKey(key), value ?? null)
    if (overlay.bytes > this.#options.maxPendingBytes) this.#writePending(false)
  }

  /**
   * Writes and clears the overlay; open iterators keep their own snapshot of it. With `sync`, the
   * WAL is fsynced, which makes every earlier unsynced write durable too: with an empty overlay
   * an empty batch does that (RocksDB fsyncs the WAL for it all the same).
   */
  #writePending(sync: boolean): void {
    const overlay = this.#overlay
    if (overlay.size === 0 && !(sync && this.#unsynced)) return
    const db = this.#db!
    const batch = db.batch()
    try {
      for (const [key, value] of overlay.entries()) {
        const bytes = Buffer.from(key, 'latin1')
        if (value === null) batch._del(bytes)
        else batch._put(bytes, value)
      }
    } catch (err) {
      batch._closeSync()
      throw db.error(err, 'write')
    }
    db.write(batch, sync)
    overlay.clear()
    this.#unsynced = !sync
  }

  /** Applies changelog records straight to RocksDB, one batch per call (large ones in the background). */
  #restore(records: ReadonlyArray<{ key: Buffer; value: Buffer | null }>): void {
    const db = this.#openDb()
    this.#writePending(false)
    db.writeChangelog(records)
    this.#unsynced = true
  }

  #range(from: Buffer | undefined, to: Buffer | undefined, forward: boolean): KeyValueIterator<Buffer, Buffer> {
    this.#openDb()
    from = from ?? undefined
    to = to ?? undefined
    // Kafka logs a warning here: from > to usually means a serde that does not preserve order.
    if (from !== undefined && to !== undefined && Buffer.compare(from, to) > 0) {
      return this.#track(new RocksDBKeyValueIterator(this.#iteratorSource, undefined, EMPTY_SNAPSHOT, forward))
    }
    return this.#iterator(from, to, false, forward)
  }

  #iterator(from: Buffer | undefined, to: Buffer | undefined, toExclusive: boolean, forward: boolean): RocksDBKeyValueIterator {
    const db = this.#openDb()
    const options: NativeIteratorOptions = { reverse: !forward }
    if (from !== undefined) options.gte = from
    if (to !== undefined) {
      if (toExclusive) options.lt = to
      else options.lte = to
    }
    const overlay = this.#overlay.snapshot(from, to, toExclusive)
    return this.#track(new RocksDBKeyValueIterator(this.#iteratorSource, db.iterator(options), overlay, forward))
  }

  #track(iterator: RocksDBKeyValueIterator): RocksDBKeyValueIterator {
    this.#openIterators.add(iterator)
    return iterator
  }

  #newIteratorSource(db: RocksDBDatabase | undefined): RocksDBIteratorSource {
    const openIterators = this.#openIterators
    const name = this.name
    return {
      storeName: name,
      lease: this.#lease,
      release: iterator => {
        openIterators.delete(iterator)
      },
      error: (err, operation) =>
        db === undefined
          ? new StreamsError('STORE_IO_ERROR', `Store "${name}": ${operation} failed`, { cause: err })
          : db.error(err, operation)
    }
  }

  #openDb(): RocksDBDatabase {
    if (this.#state !== 'open') {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is not open (${this.#state})`)
    }
    return this.#db!
  }

  #transition(next: StoreState): void {
    if (!TRANSITIONS[this.#state].includes(next)) {
      throw new IllegalStateError(`Store "${this.name}" cannot move from ${this.#state} to ${next}`)
    }
    this.#state = next
  }
}

/**
 * Writes large changelog batches (restores, standby updates) to RocksDB on a worker thread, so
 * applying one batch overlaps with fetching and decoding the next on the stream thread, as Java
 * restores on its own state-updater thread. The binding lets another thread use an open DB through
 * its native handle, and RocksDB's writes are thread-safe.
 *
 * One worker per process serves every DB and applies the batches in the order they were posted,
 * so each DB's batches land in order. The DB's owner calls `settle()` before it touches the DB in
 * any other way (reads, its own writes, iterators, close), which waits until every posted batch is
 * applied: they all happen-before what follows. A failed batch fails every later one of its DB
 * (they are skipped, never applied past a gap), and every later call throws it.
 * @internal
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Worker } from 'node:worker_threads'

/** A changelog record as restore callbacks get it; a null value deletes the key. */
export interface ChangelogEntry {
  readonly key: Buffer
  readonly value: Buffer | null | undefined
}

/** Batches posted and not yet applied, per DB, before posting one more waits. */
const MAX_IN_FLIGHT = 16

/** The shared state of one DB's writes: [applied, failed, error length], then the error text. */
const APPLIED = 0
const FAILED = 1
const ERROR_LENGTH = 2
const HEADER_BYTES = 16
const ERROR_BYTES = 1024

/**
 * The worker, CommonJS run from this string: a record is [int32 key length][key][int32 value
 * length, -1 for a delete][value], little-endian. A failure is written into the DB's shared state
 * as "code\nmessage" before the batch counts as applied.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
let binding
let loadError
try { binding = require(workerData.binding) } catch (err) { loadError = err }
const EMPTY = {}
let batch
parentPort.on('message', message => {
  const state = new Int32Array(message.state, 0, 4)
  try {
    if (Atomics.load(state, ${FAILED}) !== 0) return
    if (loadError !== undefined) throw loadError
    batch ??= binding.batch_init()
    const bytes = Buffer.from(message.data)
    let at = 0
    for (let i = 0; i < message.count; i++) {
      const keyLength = bytes.readInt32LE(at)
      const key = bytes.subarray(at + 4, at + 4 + keyLength)
      at += 4 + keyLength
      const valueLength = bytes.readInt32LE(at)
      at += 4
      if (valueLength < 0) binding.batch_del(batch, key, EMPTY)
      else {
        binding.batch_put(batch, key, bytes.subarray(at, at + valueLength), EMPTY)
        at += valueLength
      }
    }
    binding.batch_write(binding.db_init(message.handle), batch, EMPTY)
  } catch (err) {
    const text = String((err && err.code) || '') + '\\n' + String((err && err.message) || err)
    const written = new TextEncoder().encodeInto(text, new Uint8Array(message.state, ${HEADER_BYTES}, ${ERROR_BYTES}))
    Atomics.store(state, ${ERROR_LENGTH}, written.written)
    Atomics.store(state, ${FAILED}, 1)
  } finally {
    try { if (batch !== undefined) binding.batch_clear(batch) } catch {}
    Atomics.add(state, ${APPLIED}, 1)
    Atomics.notify(state, ${APPLIED})
  }
})
`

/**
 * The worker thread that applies the batches of every DB that posts to it, in order. A worker
 * that stopped (it catches every failure of a batch, so only something like running out of
 * memory stops it) is not replaced: batches after the lost ones would be applied past a gap.
 */
export class BackgroundWriter {
  readonly #binding: string
  #worker: Worker | undefined
  /** Why the worker stopped, once it did. */
  #stopped: Error | undefined

  /** `binding`: the path of the native binding's module (tests pass a fake). */
  constructor(binding: string) {
    this.#binding = binding
  }

  /** Why the worker stopped; undefined while it runs (or has not started). */
  get stopped(): Error | undefined {
    return this.#stopped
  }

  /** Posts a message to the worker, starting it first if it is not running; throws once it stopped. */
  post(message: unknown, transfer: ArrayBuffer[]): void {
    if (this.#stopped !== undefined) throw this.#stopped
    if (this.#worker === undefined) {
      const started = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { binding: this.#binding } })
      let error: unknown
      started.on('error', err => {
        error = err
      })
      started.on('exit', code => {
        this.#stopped = new Error(`the background writer thread stopped (exit code ${code}): ${String(error ?? 'no error given')}`)
      })
      // It must not keep the process up.
      started.unref()
      this.#worker = started
    }
    this.#worker.postMessage(message, transfer)
  }
}

let processWriter: BackgroundWriter | undefined

/** The writer every DB of the process shares, on @nxtedition/rocksdb's binding. */
export function defaultBackgroundWriter(): BackgroundWriter {
  return (processWriter ??= new BackgroundWriter(
    join(dirname(createRequire(import.meta.url).resolve('@nxtedition/rocksdb')), 'binding.js')
  ))
}

/** The background writes of one open DB. */
export class BackgroundWrites {
  readonly #handle: bigint
  readonly #writer: BackgroundWriter
  readonly #shared = new SharedArrayBuffer(HEADER_BYTES + ERROR_BYTES)
  readonly #state = new Int32Array(this.#shared, 0, 4)
  #posted = 0
  #failure: Error | undefined

  constructor(handle: bigint, writer: BackgroundWriter) {
    this.#handle = handle
    this.#writer = writer
  }

  /** Whether `settle()` has anything to do: batches posted since, or a failure to throw. */
  get pending(): boolean {
    return this.#posted !== 0 || this.#failure !== undefined
  }

  /** Posts one batch; throws the failure of an earlier one instead. */
  write(records: ReadonlyArray<ChangelogEntry>): void {
    this.#throwFailure()
    if (this.#posted - Atomics.load(this.#state, APPLIED) >= MAX_IN_FLIGHT) this.#waitUntil(this.#posted - MAX_IN_FLIGHT + 1)
    let size = 0
    for (const record of records) size += 8 + record.key.length + (record.value?.length ?? 0)
    const bytes = Buffer.allocUnsafeSlow(size)
    let at = 0
    for (const record of records) {
      const key = record.key
      bytes.writeInt32LE(key.length, at)
      bytes.set(key, at + 4)
      at += 4 + key.length
      const value = record.value
      if (value === null || value === undefined) {
        bytes.writeInt32LE(-1, at)
        at += 4
      } else {
        bytes.writeInt32LE(value.length, at)
        bytes.set(value, at + 4)
        at += 4 + value.length
      }
    }
    const data = bytes.buffer as ArrayBuffer
    this.#writer.post({ handle: this.#handle, state: this.#shared, data, count: records.length }, [data])
    this.#posted++
  }

  /** Waits until every posted batch is applied; throws the first failure. */
  settle(): void {
    if (this.#posted !== 0) {
      this.#waitUntil(this.#posted)
      this.#posted = 0
      Atomics.store(this.#state, APPLIED, 0)
    }
    this.#throwFailure()
  }

  /**
   * Waits (blocking this thread, as a synchronous write would, also through a RocksDB write stall)
   * until `applied` batches are. Gives up only when the worker stopped: nothing writes to the DB
   * then, so it can be closed.
   */
  #waitUntil(applied: number): void {
    const state = this.#state
    let seen = Atomics.load(state, APPLIED)
    while (seen < applied) {
      const stopped = this.#writer.stopped
      if (stopped !== undefined) {
        this.#failure ??= stopped
        throw this.#failure
      }
      Atomics.wait(state, APPLIED, seen, 1000)
      seen = Atomics.load(state, APPLIED)
    }
  }

  /** Throws the failure the worker reported, for good: the DB missed the batches after it. */
  #throwFailure(): void {
    if (this.#failure === undefined) {
      if (Atomics.load(this.#state, FAILED) === 0) return
      const length = Atomics.load(this.#state, ERROR_LENGTH)
      const text = Buffer.from(this.#shared, HEADER_BYTES, length).toString('utf8')
      const newline = text.indexOf('\n')
      const failure = new Error(text.slice(newline + 1)) as Error & { code?: string }
      if (newline > 0) failure.code = text.slice(0, newline)
      this.#failure = failure
    }
    throw this.#failure
  }
}

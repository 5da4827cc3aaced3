/**
 * The task-directory locks of one KafkaStreams instance, in shared memory so that stream threads
 * on worker threads see one table (Kafka Streams' StateDirectory keeps one map for all threads of
 * a client). A table of slots, each the holder's id, the holder's thread, whether its task is
 * suspended, and the task id's text; every release bumps a counter that waiters sleep on. Holders
 * are objects (a task manager, the state cleaner), given ids from a counter in the table, so ids
 * never repeat across threads.
 *
 * Only taking a slot (and reading the keys of all) is done under the table's lock (SharedMutex):
 * a slot is written first and its holder last, so a thread that ends half way leaves it free.
 * Everything else touches one word of a slot its holder owns, with an atomic operation and no
 * lock. A thread that ended is let go with unlockThread, which frees the table's lock too if that
 * thread died holding it. The table grows (a growable SharedArrayBuffer, seen at once by every
 * thread) from 256 slots up to MAX_SLOTS. Scans read the words plainly (an atomic load costs
 * several times more): a word read while another thread changes it is the old value or the new,
 * and the atomic writes (a slot's holder, the lock, the release counter) order the rest.
 * @internal
 */
import { threadId } from 'node:worker_threads'
import { StreamsError } from '../../errors.js'
import { waitAsync } from '../wait-async.js'
import { SharedMutex } from './shared-mutex.js'

/** A slot: holder id (0: free), the holder's threadId, suspended (0/1), key length, then the key's bytes (task ids are short: "12_345"). */
const HOLDER = 0
const THREAD = 1
const SUSPENDED = 2
const KEY_LENGTH = 3
const KEY = 4
const KEY_BYTES = 48
const SLOT_INTS = KEY + KEY_BYTES / 4
const MUTEX = 0
const RELEASES = 1
const NEXT_HOLDER = 2
const HEADER_INTS = 4
const INITIAL_SLOTS = 256
/** The most task directories one instance can hold at once (64 MiB of address space reserved, used as the table grows). */
const MAX_SLOTS = 1 << 20
/** The holder id of the state cleaner, the same on every thread: its locks are no task's. */
const CLEANER_ID = 1
/** How long the thread that made the table waits for its lock before giving up (see SharedMutex). */
const CREATOR_MAX_WAIT_MS = 1000

/** Holder ids, per table. */
const holderIds = new WeakMap<SharedArrayBuffer, WeakMap<object, number>>()

/** SharedArrayBuffer as ES2024 has it (the lib here is ES2023). */
interface GrowableSharedArrayBuffer extends SharedArrayBuffer {
  readonly growable: boolean
  grow(byteLength: number): void
}
const GrowableSharedArrayBuffer = SharedArrayBuffer as unknown as new (
  byteLength: number,
  options: { maxByteLength: number }
) => GrowableSharedArrayBuffer

const tableBytes = (slots: number): number => (HEADER_INTS + slots * SLOT_INTS) * 4

export class TaskLocks {
  /** The state cleaner's holder: it looks at directories no task holds. */
  static readonly CLEANER: object = Object.freeze({ name: 'state cleaner' })
  /** The table's memory; hand it to another thread and `new TaskLocks(memory)` there shares it. */
  readonly memory: SharedArrayBuffer
  /** Views of the memory as long as it was when last looked at (fixed-length views are much faster than ones that follow growth). */
  #ints: Int32Array
  #bytes: Uint8Array
  readonly #mutex: SharedMutex

  /**
   * A new table (this thread then lets go of the threads it starts when they end: unlockThread),
   * or the table in `memory`.
   */
  constructor(memory?: SharedArrayBuffer) {
    this.memory = memory ?? new GrowableSharedArrayBuffer(tableBytes(INITIAL_SLOTS), { maxByteLength: tableBytes(MAX_SLOTS) })
    this.#ints = new Int32Array(this.memory, 0, this.memory.byteLength / 4)
    this.#bytes = new Uint8Array(this.memory, 0, this.memory.byteLength)
    this.#mutex = new SharedMutex(this.#ints, MUTEX, memory === undefined ? CREATOR_MAX_WAIT_MS : Infinity, 'The task lock table')
    Atomics.compareExchange(this.#ints, NEXT_HOLDER, 0, CLEANER_ID + 1)
  }

  /** Takes `key` for `holder` unless someone else holds it; true when `holder` holds it now. */
  tryLock(key: string, holder: object): boolean {
    const id = this.#holderId(holder)
    const encoded = encode(key)
    return this.#mutex.run(() => {
      let free = -1
      for (let base = HEADER_INTS, end = this.#end(); base < end; base += SLOT_INTS) {
        const holding = this.#ints[base + HOLDER]!
        // A held slot's key does not change while the lock is held.
        if (holding !== 0 && this.#keyIs(base, encoded)) return holding === id
        if (holding === 0 && free === -1) free = base
      }
      const base = free === -1 ? this.#grow(key) : free
      this.#ints.set(encoded, base + KEY_LENGTH)
      this.#ints[base + THREAD] = threadId
      this.#ints[base + SUSPENDED] = 0
      // Last: until now the slot is free, whatever else it holds.
      Atomics.store(this.#ints, base + HOLDER, id)
      return true
    })
  }

  /** Whether `holder` holds `key`. */
  holds(key: string, holder: object): boolean {
    return this.#own(encode(key), this.#holderId(holder)) !== -1
  }

  /** Lets go of `key` if `holder` holds it. */
  unlock(key: string, holder: object): void {
    const id = this.#holderId(holder)
    const base = this.#own(encode(key), id)
    if (base !== -1 && Atomics.compareExchange(this.#ints, base + HOLDER, id, 0) === id) this.#released()
  }

  /** Lets go of every key `holder` holds. */
  unlockAll(holder: object): void {
    const id = this.#holderId(holder)
    this.#freeWhere(base => this.#ints[base + HOLDER] === id)
  }

  /**
   * Lets go of every key a holder on thread `thread` held, and of the table's lock if `thread`
   * died holding it: call it once that thread has ended (a worker's 'exit').
   */
  unlockThread(thread: number): void {
    this.#mutex.ended(thread)
    this.#freeWhere(base => this.#ints[base + THREAD] === thread)
  }

  /** Marks `key`, which `holder` holds, as a suspended task's (eager revocation) or not. */
  setSuspended(key: string, holder: object, suspended: boolean): void {
    const base = this.#own(encode(key), this.#holderId(holder))
    if (base !== -1) Atomics.store(this.#ints, base + SUSPENDED, suspended ? 1 : 0)
  }

  /** The keys tasks hold now: neither the cleaner's nor those of suspended tasks. */
  taskKeys(): string[] {
    return this.#mutex.run(() => {
      const keys: string[] = []
      for (let base = HEADER_INTS, end = this.#end(); base < end; base += SLOT_INTS) {
        const id = this.#ints[base + HOLDER]
        if (id !== 0 && id !== CLEANER_ID && this.#ints[base + SUSPENDED] === 0) keys.push(this.#key(base))
      }
      return keys
    })
  }

  /** How many releases there have been; read it before trying, so a release in between is not missed. */
  releases(): number {
    return Atomics.load(this.#ints, RELEASES)
  }

  /** Resolves once there has been a release since `seen` (releases()), or after `timeoutMs`. */
  async released(seen: number, timeoutMs: number): Promise<void> {
    await waitAsync(this.#ints, RELEASES, seen, timeoutMs)
  }

  /** The table's id for `holder` (the cleaner's is fixed); unique across threads. */
  #holderId(holder: object): number {
    if (holder === TaskLocks.CLEANER) return CLEANER_ID
    let ids = holderIds.get(this.memory)
    if (ids === undefined) {
      ids = new WeakMap()
      holderIds.set(this.memory, ids)
    }
    let id = ids.get(holder)
    if (id === undefined) {
      id = Atomics.add(this.#ints, NEXT_HOLDER, 1)
      ids.set(holder, id)
    }
    return id
  }

  /** Where the slots end now (the table may have grown on another thread: the views then follow). */
  #end(): number {
    const bytes = this.memory.byteLength
    if (bytes !== this.#bytes.length) {
      this.#ints = new Int32Array(this.memory, 0, bytes / 4)
      this.#bytes = new Uint8Array(this.memory, 0, bytes)
    }
    return HEADER_INTS + Math.floor((this.#ints.length - HEADER_INTS) / SLOT_INTS) * SLOT_INTS
  }

  /** The slot where `id` holds `key`, without the lock (only its holder frees it); -1 if none. */
  #own(encoded: Int32Array, id: number): number {
    for (let base = HEADER_INTS, end = this.#end(); base < end; base += SLOT_INTS)
      if (this.#ints[base + HOLDER] === id && this.#keyIs(base, encoded)) return base
    return -1
  }

  /** Whether the slot at `base` has the key `encoded` (its length, then its bytes, a word at a time). */
  #keyIs(base: number, encoded: Int32Array): boolean {
    for (let i = 0; i < encoded.length; i++) if (this.#ints[base + KEY_LENGTH + i] !== encoded[i]) return false
    return true
  }

  #key(base: number): string {
    const start = (base + KEY) * 4
    return Buffer.from(this.#bytes.subarray(start, start + this.#ints[base + KEY_LENGTH]!)).toString()
  }

  #freeWhere(matches: (base: number) => boolean): void {
    let freed = false
    for (let base = HEADER_INTS, end = this.#end(); base < end; base += SLOT_INTS) {
      const id = this.#ints[base + HOLDER]!
      if (id !== 0 && matches(base) && Atomics.compareExchange(this.#ints, base + HOLDER, id, 0) === id) freed = true
    }
    if (freed) this.#released()
  }

  #released(): void {
    Atomics.add(this.#ints, RELEASES, 1)
    Atomics.notify(this.#ints, RELEASES)
  }

  /** Under the lock, with no slot free: grows the table and returns its first new slot. */
  #grow(key: string): number {
    const end = this.#end()
    const slots = (end - HEADER_INTS) / SLOT_INTS
    const memory = this.memory as GrowableSharedArrayBuffer
    if (slots >= MAX_SLOTS || !memory.growable)
      throw new StreamsError(
        'ILLEGAL_STATE',
        `Cannot lock the directory of task ${key}: this instance already holds ${slots} task directories (active and standby tasks), the most it can`
      )
    memory.grow(tableBytes(Math.min(MAX_SLOTS, slots * 2)))
    this.#end()
    return end
  }
}

/**
 * A task id as a slot stores it, from KEY_LENGTH on: its length in bytes, then its bytes (zero
 * padded to whole words); ILLEGAL_ARGUMENT when they do not fit a slot.
 */
function encode(key: string): Int32Array {
  const bytes = Buffer.from(key)
  if (bytes.length > KEY_BYTES)
    throw new StreamsError('ILLEGAL_ARGUMENT', `Task id "${key}" is too long for the task lock table (${KEY_BYTES} bytes at most)`)
  const encoded = new Int32Array(1 + Math.ceil(bytes.length / 4))
  encoded[0] = bytes.length
  new Uint8Array(encoded.buffer, 4).set(bytes)
  return encoded
}

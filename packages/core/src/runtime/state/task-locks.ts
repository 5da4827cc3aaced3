/**
 * The task-directory locks of one KafkaStreams instance, in shared memory so that stream threads
 * on worker threads see one table (Kafka Streams' StateDirectory keeps one map for all threads of
 * a client). A fixed table of slots guarded by a spin lock, each slot the holder's id, the
 * holder's thread, whether its task is suspended, and the task id's text; every release bumps a
 * counter that waiters sleep on. Holders are objects (a task manager, the state cleaner), given
 * ids from a counter in the table, so ids never repeat across threads.
 * @internal
 */
import { threadId } from 'node:worker_threads'
import { StreamsError } from '../../errors.js'
import { waitAsync } from '../wait-async.js'

const SLOTS = 4096
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
const HEADER_INTS = 3
/** The holder id of the state cleaner, the same on every thread: its locks are no task's. */
const CLEANER_ID = 1

/** Holder ids, per table. */
const holderIds = new WeakMap<SharedArrayBuffer, WeakMap<object, number>>()

export class TaskLocks {
  /** The state cleaner's holder: it looks at directories no task holds. */
  static readonly CLEANER: object = Object.freeze({ name: 'state cleaner' })
  /** The table's memory; hand it to another thread and `new TaskLocks(memory)` there shares it. */
  readonly memory: SharedArrayBuffer
  readonly #ints: Int32Array
  readonly #bytes: Uint8Array

  constructor(memory?: SharedArrayBuffer) {
    this.memory = memory ?? new SharedArrayBuffer((HEADER_INTS + SLOTS * SLOT_INTS) * 4)
    this.#ints = new Int32Array(this.memory)
    this.#bytes = new Uint8Array(this.memory)
    if (memory === undefined) Atomics.store(this.#ints, NEXT_HOLDER, CLEANER_ID + 1)
  }

  /** Takes `key` for `holder` unless someone else holds it; true when `holder` holds it now. */
  tryLock(key: string, holder: object): boolean {
    const id = this.#holderId(holder)
    return this.#locked(() => {
      const slot = this.#find(key)
      if (slot !== -1) return this.#ints[this.#base(slot) + HOLDER] === id
      const base = this.#base(this.#free(key))
      const encoded = Buffer.from(key)
      this.#bytes.set(encoded, (base + KEY) * 4)
      this.#ints[base + KEY_LENGTH] = encoded.length
      this.#ints[base + THREAD] = threadId
      this.#ints[base + SUSPENDED] = 0
      this.#ints[base + HOLDER] = id
      return true
    })
  }

  /** Whether `holder` holds `key`. */
  holds(key: string, holder: object): boolean {
    return this.#heldSlot(key, holder) !== -1
  }

  /** Lets go of `key` if `holder` holds it. */
  unlock(key: string, holder: object): void {
    const id = this.#holderId(holder)
    const released = this.#locked(() => {
      const slot = this.#find(key)
      if (slot === -1 || this.#ints[this.#base(slot) + HOLDER] !== id) return false
      this.#ints[this.#base(slot) + HOLDER] = 0
      return true
    })
    if (released) this.#released()
  }

  /** Lets go of every key `holder` holds. */
  unlockAll(holder: object): void {
    const id = this.#holderId(holder)
    this.#freeWhere(base => this.#ints[base + HOLDER] === id)
  }

  /** Lets go of every key a holder on thread `thread` holds (a worker thread that ended). */
  unlockThread(thread: number): void {
    this.#freeWhere(base => this.#ints[base + THREAD] === thread)
  }

  /** Marks `key`, which `holder` holds, as a suspended task's (eager revocation) or not. */
  setSuspended(key: string, holder: object, suspended: boolean): void {
    const id = this.#holderId(holder)
    this.#locked(() => {
      const slot = this.#find(key)
      if (slot !== -1 && this.#ints[this.#base(slot) + HOLDER] === id) this.#ints[this.#base(slot) + SUSPENDED] = suspended ? 1 : 0
    })
  }

  /** The keys tasks hold now: neither the cleaner's nor those of suspended tasks. */
  taskKeys(): string[] {
    return this.#locked(() => {
      const keys: string[] = []
      for (let slot = 0; slot < SLOTS; slot++) {
        const base = this.#base(slot)
        const id = this.#ints[base + HOLDER]!
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

  #heldSlot(key: string, holder: object): number {
    const id = this.#holderId(holder)
    return this.#locked(() => {
      const slot = this.#find(key)
      return slot !== -1 && this.#ints[this.#base(slot) + HOLDER] === id ? slot : -1
    })
  }

  #freeWhere(matches: (base: number) => boolean): void {
    this.#locked(() => {
      for (let slot = 0; slot < SLOTS; slot++) {
        const base = this.#base(slot)
        if (this.#ints[base + HOLDER] !== 0 && matches(base)) this.#ints[base + HOLDER] = 0
      }
    })
    this.#released()
  }

  #released(): void {
    Atomics.add(this.#ints, RELEASES, 1)
    Atomics.notify(this.#ints, RELEASES)
  }

  #locked<T>(body: () => T): T {
    while (Atomics.compareExchange(this.#ints, MUTEX, 0, 1) !== 0) Atomics.wait(this.#ints, MUTEX, 1, 1)
    try {
      return body()
    } finally {
      Atomics.store(this.#ints, MUTEX, 0)
      Atomics.notify(this.#ints, MUTEX, 1)
    }
  }

  #base(slot: number): number {
    return HEADER_INTS + slot * SLOT_INTS
  }

  #key(base: number): string {
    const start = (base + KEY) * 4
    return Buffer.from(this.#bytes.subarray(start, start + this.#ints[base + KEY_LENGTH]!)).toString()
  }

  #find(key: string): number {
    for (let slot = 0; slot < SLOTS; slot++) {
      const base = this.#base(slot)
      if (this.#ints[base + HOLDER] !== 0 && this.#key(base) === key) return slot
    }
    return -1
  }

  #free(key: string): number {
    if (Buffer.byteLength(key) > KEY_BYTES)
      throw new StreamsError('ILLEGAL_ARGUMENT', `Task id "${key}" is too long for the task lock table (${KEY_BYTES} bytes at most)`)
    for (let slot = 0; slot < SLOTS; slot++) if (this.#ints[this.#base(slot) + HOLDER] === 0) return slot
    throw new StreamsError('ILLEGAL_STATE', `Cannot lock the directory of task ${key}: this instance already holds ${SLOTS} task locks`)
  }
}

/**
 * The task-directory locks of one KafkaStreams instance, in shared memory so that stream threads
 * on worker threads see one table (Kafka Streams' StateDirectory keeps one map for all threads of
 * a client). A fixed table of slots, each the holder's id and the task id's text, guarded by a
 * spin lock; every release bumps a counter that waiters sleep on. Holders are objects (a task
 * manager, the state cleaner), numbered per thread.
 * @internal
 */
import { threadId } from 'node:worker_threads'
import { StreamsError } from '../../errors.js'

const SLOTS = 4096
/** A slot: holder id, key length, then the key's bytes (task ids are short: "12_345"). */
const KEY_BYTES = 56
const SLOT_INTS = 2 + KEY_BYTES / 4
const MUTEX = 0
const RELEASES = 1
const HEADER_INTS = 2

/** Atomics.waitAsync (ES2024; in Node since 16), which the ES2022 lib does not declare. */
interface AtomicsWaitAsync {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
    timeoutMs: number
  ): { async: false; value: string } | { async: true; value: Promise<string> }
}

const holderIds = new WeakMap<object, number>()
let nextHolder = 1

/** This thread's number for `holder`; unique across the threads of the process. */
function holderId(holder: object): number {
  let id = holderIds.get(holder)
  if (id === undefined) {
    if (nextHolder > 0xfffff) nextHolder = 1
    id = (((threadId & 0x3ff) << 20) | nextHolder++) + 1
    holderIds.set(holder, id)
  }
  return id
}

export class TaskLocks {
  /** The table's memory; hand it to another thread and `new TaskLocks(memory)` there shares it. */
  readonly memory: SharedArrayBuffer
  readonly #ints: Int32Array
  readonly #bytes: Uint8Array

  constructor(memory = new SharedArrayBuffer((HEADER_INTS + SLOTS * SLOT_INTS) * 4)) {
    this.memory = memory
    this.#ints = new Int32Array(memory)
    this.#bytes = new Uint8Array(memory)
  }

  /** Takes `key` for `holder` unless someone else holds it; true when `holder` holds it now. */
  tryLock(key: string, holder: object): boolean {
    const id = holderId(holder)
    return this.#locked(() => {
      const slot = this.#find(key)
      if (slot !== -1) return this.#ints[this.#base(slot)] === id
      const free = this.#free(key)
      const base = this.#base(free)
      const encoded = Buffer.from(key)
      this.#bytes.set(encoded, (base + 2) * 4)
      this.#ints[base + 1] = encoded.length
      this.#ints[base] = id
      return true
    })
  }

  /** Whether `holder` holds `key`. */
  holds(key: string, holder: object): boolean {
    const id = holderId(holder)
    return this.#locked(() => {
      const slot = this.#find(key)
      return slot !== -1 && this.#ints[this.#base(slot)] === id
    })
  }

  /** Lets go of `key` if `holder` holds it. */
  unlock(key: string, holder: object): void {
    const id = holderId(holder)
    const released = this.#locked(() => {
      const slot = this.#find(key)
      if (slot === -1 || this.#ints[this.#base(slot)] !== id) return false
      this.#ints[this.#base(slot)] = 0
      return true
    })
    if (released) this.#released()
  }

  /** Lets go of every key `holder` holds. */
  unlockAll(holder: object): void {
    const id = holderId(holder)
    this.#locked(() => {
      for (let slot = 0; slot < SLOTS; slot++) if (this.#ints[this.#base(slot)] === id) this.#ints[this.#base(slot)] = 0
    })
    this.#released()
  }

  /** Every key held now, by anyone but `except`. */
  heldKeys(except?: object): string[] {
    const skip = except === undefined ? 0 : holderId(except)
    return this.#locked(() => {
      const keys: string[] = []
      for (let slot = 0; slot < SLOTS; slot++) {
        const base = this.#base(slot)
        const id = this.#ints[base]!
        if (id !== 0 && id !== skip) keys.push(this.#key(base))
      }
      return keys
    })
  }

  /** Resolves at the next release (by any thread), or after `timeoutMs`. */
  async released(timeoutMs: number): Promise<void> {
    const seen = Atomics.load(this.#ints, RELEASES)
    const waited = (Atomics as unknown as AtomicsWaitAsync).waitAsync(this.#ints, RELEASES, seen, Math.max(0, timeoutMs))
    if (waited.async) await waited.value
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
    const length = this.#ints[base + 1]!
    return Buffer.from(this.#bytes.subarray((base + 2) * 4, (base + 2) * 4 + length)).toString()
  }

  #find(key: string): number {
    for (let slot = 0; slot < SLOTS; slot++) {
      const base = this.#base(slot)
      if (this.#ints[base] !== 0 && this.#key(base) === key) return slot
    }
    return -1
  }

  #free(key: string): number {
    if (Buffer.byteLength(key) > KEY_BYTES)
      throw new StreamsError('ILLEGAL_ARGUMENT', `Task id "${key}" is too long for the task lock table (${KEY_BYTES} bytes at most)`)
    for (let slot = 0; slot < SLOTS; slot++) if (this.#ints[this.#base(slot)] === 0) return slot
    throw new StreamsError('ILLEGAL_STATE', `Cannot lock the directory of task ${key}: this instance already holds ${SLOTS} task locks`)
  }
}

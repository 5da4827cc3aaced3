/**
 * A deliberately naive KeyValueBytesStore for testing the layers above the backend in core (which
 * cannot depend on @kstreams/stores): a Map plus a sort by Buffer.compare on every range read.
 */
import { InvalidStateStoreError } from '../../../src/errors.js'
import { KeyValue } from '../../../src/key-value.js'
import type { Serializer } from '../../../src/serialization/serde.js'
import type { KeyValueBytesStore, KeyValueIterator } from '../../../src/state/key-value-store.js'
import type { StateStore, StateStoreContext } from '../../../src/state/state-store.js'

export class SimpleBytesStore implements KeyValueBytesStore {
  readonly persistent: boolean = false
  readonly entries = new Map<string, Buffer>()
  readonly openIterators = new Set<KeyValueIterator<Buffer, Buffer>>()
  prefixTopics: string[] = []
  #open = false

  constructor(readonly name: string) {}

  init(context: StateStoreContext, root: StateStore): void {
    context.register(root, records => {
      for (const r of records) this.#put(r.key, r.value)
    })
    this.#open = true
  }

  flush(): void {}
  close(): void {
    this.#open = false
  }
  isOpen(): boolean {
    return this.#open
  }

  get(key: Buffer): Buffer | null {
    this.#check()
    return this.entries.get(key.toString('hex')) ?? null
  }
  put(key: Buffer, value: Buffer | null): void {
    this.#check()
    this.#put(key, value)
  }
  putIfAbsent(key: Buffer, value: Buffer | null): Buffer | null {
    const old = this.get(key)
    if (old === null) this.put(key, value)
    return old
  }

  putAll(entries: ReadonlyArray<KeyValue<Buffer, Buffer | null>>): void {
    for (const e of entries) this.put(e.key, e.value)
  }
  delete(key: Buffer): Buffer | null {
    const old = this.get(key)
    this.entries.delete(key.toString('hex'))
    return old
  }

  range(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.#iterator(
      k => (from === undefined || Buffer.compare(k, from) >= 0) && (to === undefined || Buffer.compare(k, to) <= 0),
      false
    )
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.#iterator(
      k => (from === undefined || Buffer.compare(k, from) >= 0) && (to === undefined || Buffer.compare(k, to) <= 0),
      true
    )
  }

  all(): KeyValueIterator<Buffer, Buffer> {
    return this.#iterator(() => true, false)
  }
  reverseAll(): KeyValueIterator<Buffer, Buffer> {
    return this.#iterator(() => true, true)
  }
  prefixScan<P>(prefix: P, serializer: Serializer<P>): KeyValueIterator<Buffer, Buffer> {
    this.prefixTopics.push('<inner>')
    const raw = serializer.serialize('<inner>', prefix)!
    return this.#iterator(k => k.subarray(0, raw.length).equals(raw), false)
  }

  approximateNumEntries(): number {
    this.#check()
    return this.entries.size
  }

  #put(key: Buffer, value: Buffer | null): void {
    if (value === null) this.entries.delete(key.toString('hex'))
    else this.entries.set(key.toString('hex'), value)
  }

  #check(): void {
    if (!this.#open) throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store ${this.name} is not open`)
  }

  #iterator(filter: (key: Buffer) => boolean, reverse: boolean): KeyValueIterator<Buffer, Buffer> {
    this.#check()
    const rows = [...this.entries.entries()]
      .map(([hex, value]) => new KeyValue(Buffer.from(hex, 'hex'), value))
      .filter(kv => filter(kv.key))
      .sort((a, b) => Buffer.compare(a.key, b.key))
    if (reverse) rows.reverse()
    let i = 0
    const open = this.openIterators
    const iterator: KeyValueIterator<Buffer, Buffer> = {
      next: () => (i < rows.length ? { done: false, value: rows[i++]! } : { done: true, value: undefined }),
      peekNextKey: () => rows[i]?.key,
      close: () => {
        open.delete(iterator)
      },
      [Symbol.iterator]() {
        return iterator
      },
      [Symbol.dispose]() {
        iterator.close()
      }
    }
    open.add(iterator)
    return iterator
  }
}

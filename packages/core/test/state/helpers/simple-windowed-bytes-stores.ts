/**
 * Deliberately naive window and session bytes stores for testing the metered layers in core
 * (which cannot depend on @kstreams/stores): arrays scanned and sorted on every read, no
 * retention. They record each call (name and argument count) so tests can check overload routing.
 */
import { InvalidStateStoreError } from '../../../src/errors.js'
import { KeyValue } from '../../../src/key-value.js'
import type { KeyValueIterator } from '../../../src/state/key-value-store.js'
import type { SessionBytesStore } from '../../../src/state/session-store.js'
import type { StateStore, StateStoreContext } from '../../../src/state/state-store.js'
import type { WindowBytesStore, WindowStoreIterator } from '../../../src/state/window-store.js'
import { SessionWindow, TimeWindow, Windowed } from '../../../src/state/windowed.js'

interface Row {
  key: Buffer
  start: number
  end: number
  value: Buffer
}

function iterator<K>(entries: Array<KeyValue<K, Buffer>>, open: Set<unknown>): KeyValueIterator<K, Buffer> {
  let i = 0
  const it: KeyValueIterator<K, Buffer> = {
    next: () => (i < entries.length ? { done: false, value: entries[i++]! } : { done: true, value: undefined }),
    peekNextKey: () => entries[i]?.key,
    close: () => {
      open.delete(it)
    },
    [Symbol.iterator]: () => it,
    [Symbol.dispose]: () => {
      it.close()
    }
  }
  open.add(it)
  return it
}

const inRange = (key: Buffer, from: Buffer | undefined, to: Buffer | undefined): boolean =>
  (from === undefined || Buffer.compare(key, from) >= 0) && (to === undefined || Buffer.compare(key, to) <= 0)

abstract class SimpleStore {
  readonly persistent = false
  readonly calls: string[] = []
  readonly openIterators = new Set<unknown>()
  rows: Row[] = []
  #open = false

  constructor(readonly name: string) {}

  init(context: StateStoreContext, root: StateStore): void {
    context.register(root, () => {})
    this.#open = true
  }

  flush(): void {
    this.calls.push('flush')
  }
  close(): void {
    this.#open = false
  }
  isOpen(): boolean {
    return this.#open
  }

  protected check(call: string): void {
    if (!this.#open) throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store ${this.name} is not open`)
    this.calls.push(call)
  }

  protected sorted(filter: (row: Row) => boolean, forward: boolean): Row[] {
    const rows = this.rows.filter(filter).sort((a, b) => a.end - b.end || a.start - b.start || Buffer.compare(a.key, b.key))
    return forward ? rows : rows.reverse()
  }
}

export class SimpleWindowBytesStore extends SimpleStore implements WindowBytesStore {
  constructor(
    name: string,
    readonly windowSize: number
  ) {
    super(name)
  }

  put(key: Buffer, value: Buffer | null, start: number): void {
    this.check('put')
    this.rows = this.rows.filter(r => !(r.key.equals(key) && r.start === start))
    if (value !== null) this.rows.push({ key, start, end: start + this.windowSize, value })
  }

  fetch(key: Buffer, time: number): Buffer | null
  fetch(key: Buffer, from: number, to: number): WindowStoreIterator<Buffer>
  fetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, from: number, to: number): KeyValueIterator<Windowed<Buffer>, Buffer>
  fetch(...args: unknown[]): unknown {
    this.check(`fetch/${args.length}`)
    if (args.length === 2) return this.rows.find(r => r.key.equals(args[0] as Buffer) && r.start === args[1])?.value ?? null
    return this.#range(args, true)
  }

  backwardFetch(key: Buffer, from: number, to: number): WindowStoreIterator<Buffer>
  backwardFetch(
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    from: number,
    to: number
  ): KeyValueIterator<Windowed<Buffer>, Buffer>
  backwardFetch(...args: unknown[]): unknown {
    this.check(`backwardFetch/${args.length}`)
    return this.#range(args, false)
  }

  fetchAll(from: number, to: number): KeyValueIterator<Windowed<Buffer>, Buffer> {
    this.check('fetchAll')
    return this.#windowed(this.sorted(r => r.start >= from && r.start <= to, true))
  }

  backwardFetchAll(from: number, to: number): KeyValueIterator<Windowed<Buffer>, Buffer> {
    this.check('backwardFetchAll')
    return this.#windowed(this.sorted(r => r.start >= from && r.start <= to, false))
  }

  all(): KeyValueIterator<Windowed<Buffer>, Buffer> {
    this.check('all')
    return this.#windowed(this.sorted(() => true, true))
  }
  backwardAll(): KeyValueIterator<Windowed<Buffer>, Buffer> {
    this.check('backwardAll')
    return this.#windowed(this.sorted(() => true, false))
  }

  #range(args: unknown[], forward: boolean): unknown {
    if (args.length === 3) {
      const [key, from, to] = args as [Buffer, number, number]
      const rows = this.sorted(r => r.key.equals(key) && r.start >= from && r.start <= to, forward)
      return iterator(
        rows.map(r => new KeyValue(r.start, r.value)),
        this.openIterators
      )
    }
    const [keyFrom, keyTo, from, to] = args as [Buffer | undefined, Buffer | undefined, number, number]
    return this.#windowed(this.sorted(r => inRange(r.key, keyFrom, keyTo) && r.start >= from && r.start <= to, forward))
  }

  #windowed(rows: Row[]): KeyValueIterator<Windowed<Buffer>, Buffer> {
    return iterator(
      rows.map(r => new KeyValue(new Windowed(r.key, new TimeWindow(r.start, r.end)), r.value)),
      this.openIterators
    )
  }
}

export class SimpleSessionBytesStore extends SimpleStore implements SessionBytesStore {
  put(sessionKey: Windowed<Buffer>, value: Buffer | null): void {
    this.check('put')
    this.#remove(sessionKey)
    if (value !== null) this.rows.push({ key: sessionKey.key, start: sessionKey.window.start, end: sessionKey.window.end, value })
  }

  remove(sessionKey: Windowed<Buffer>): void {
    this.check('remove')
    this.#remove(sessionKey)
  }

  fetchSession(key: Buffer, start: number, end: number): Buffer | null {
    this.check('fetchSession')
    return this.rows.find(r => r.key.equals(key) && r.start === start && r.end === end)?.value ?? null
  }

  findSessions(earliestEnd: number, latestEnd: number): KeyValueIterator<Windowed<Buffer>, Buffer>
  findSessions(key: Buffer, earliestEnd: number, latestStart: number): KeyValueIterator<Windowed<Buffer>, Buffer>
  findSessions(
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    earliestEnd: number,
    latestStart: number
  ): KeyValueIterator<Windowed<Buffer>, Buffer>
  findSessions(...args: unknown[]): KeyValueIterator<Windowed<Buffer>, Buffer> {
    this.check(`findSessions/${args.length}`)
    if (args.length === 2) {
      const [earliestEnd, latestEnd] = args as [number, number]
      return this.#sessions(r => r.end >= earliestEnd && r.end <= latestEnd, true)
    }
    return this.#find(args, true)
  }

  backwardFindSessions(key: Buffer, earliestEnd: number, latestStart: number): KeyValueIterator<Windowed<Buffer>, Buffer>
  backwardFindSessions(
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    earliestEnd: number,
    latestStart: number
  ): KeyValueIterator<Windowed<Buffer>, Buffer>
  backwardFindSessions(...args: unknown[]): KeyValueIterator<Windowed<Buffer>, Buffer> {
    this.check(`backwardFindSessions/${args.length}`)
    return this.#find(args, false)
  }

  fetch(key: Buffer): KeyValueIterator<Windowed<Buffer>, Buffer>
  fetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined): KeyValueIterator<Windowed<Buffer>, Buffer>
  fetch(...args: unknown[]): KeyValueIterator<Windowed<Buffer>, Buffer> {
    this.check(`fetch/${args.length}`)
    return this.#fetch(args, true)
  }

  backwardFetch(key: Buffer): KeyValueIterator<Windowed<Buffer>, Buffer>
  backwardFetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined): KeyValueIterator<Windowed<Buffer>, Buffer>
  backwardFetch(...args: unknown[]): KeyValueIterator<Windowed<Buffer>, Buffer> {
    this.check(`backwardFetch/${args.length}`)
    return this.#fetch(args, false)
  }

  #find(args: unknown[], forward: boolean): KeyValueIterator<Windowed<Buffer>, Buffer> {
    const [from, to, earliestEnd, latestStart] = args.length === 3 ? ([args[0], args[0], args[1], args[2]] as const) : args
    return this.#sessions(
      r =>
        inRange(r.key, from as Buffer | undefined, to as Buffer | undefined) &&
        r.end >= (earliestEnd as number) &&
        r.start <= (latestStart as number),
      forward
    )
  }

  #fetch(args: unknown[], forward: boolean): KeyValueIterator<Windowed<Buffer>, Buffer> {
    const [from, to] = args.length === 1 ? [args[0], args[0]] : args
    return this.#sessions(r => inRange(r.key, from as Buffer | undefined, to as Buffer | undefined), forward)
  }

  #sessions(filter: (row: Row) => boolean, forward: boolean): KeyValueIterator<Windowed<Buffer>, Buffer> {
    return iterator(
      this.sorted(filter, forward).map(r => new KeyValue(new Windowed(r.key, new SessionWindow(r.start, r.end)), r.value)),
      this.openIterators
    )
  }

  #remove(sessionKey: Windowed<Buffer>): void {
    this.rows = this.rows.filter(
      r => !(r.key.equals(sessionKey.key) && r.start === sessionKey.window.start && r.end === sessionKey.window.end)
    )
  }
}

import { StreamsError } from './errors.js'

/** One record header: a key and its bytes. */
export interface Header {
  /** The header key. */
  readonly key: string
  /** The header value; null for a header without one. */
  readonly value: Buffer | null
}

/** The list of every Headers without headers (never changed: add() replaces it). */
const NO_HEADERS: Header[] = Object.freeze([]) as unknown as Header[]

/** Record headers, an ordered list in which a key may repeat (Kafka's `Headers`). */
export class Headers implements Iterable<Header> {
  #headers: Header[]

  constructor(headers?: Iterable<Header> | { readonly [key: string]: string | Buffer | null }) {
    // The common empty case (every consumed record has a Headers) shares one frozen empty list;
    // the first add() gives this Headers its own.
    if (headers === undefined) {
      this.#headers = NO_HEADERS
    } else if (Symbol.iterator in headers) {
      this.#headers = [...(headers as Iterable<Header>)]
    } else {
      this.#headers = Object.entries(headers).map(([key, value]) => ({
        key,
        value: typeof value === 'string' ? Buffer.from(value) : value
      }))
    }
  }

  /** Appends a header (a string value as UTF-8); returns this. */
  add(key: string, value: Buffer | string | null): this {
    if (this.#headers === NO_HEADERS) this.#headers = []
    this.#headers.push({ key, value: typeof value === 'string' ? Buffer.from(value) : value })
    return this
  }

  /** Removes every header with `key`; returns this. */
  remove(key: string): this {
    for (let i = this.#headers.length - 1; i >= 0; i--) {
      if (this.#headers[i]!.key === key) this.#headers.splice(i, 1)
    }
    return this
  }

  /** The last header with `key`, or undefined. */
  lastHeader(key: string): Header | undefined {
    for (let i = this.#headers.length - 1; i >= 0; i--) {
      if (this.#headers[i]!.key === key) return this.#headers[i]
    }
    return undefined
  }

  /** Every header with `key`, in order. */
  headers(key: string): Header[] {
    return this.#headers.filter(h => h.key === key)
  }

  /** All headers, in order (a copy). */
  toArray(): Header[] {
    return [...this.#headers]
  }

  /** How many headers there are. */
  get size(): number {
    return this.#headers.length
  }

  /** Iterates the headers in order. */
  [Symbol.iterator](): Iterator<Header> {
    return this.#headers[Symbol.iterator]()
  }

  /** A copy that can be changed without changing this one. */
  copy(): Headers {
    return this.#headers.length === 0 ? new Headers() : new Headers(this.#headers)
  }
}

/**
 * A record flowing through a topology (Kafka Streams' `api.Record`). Immutable: the `with*`
 * methods return a new record.
 */
export class Record<K, V> {
  /** The record's key. */
  readonly key: K
  /** The record's value. */
  readonly value: V
  /** The record's timestamp (ms, never negative). */
  readonly timestamp: number
  /** The record's headers. */
  readonly headers: Headers

  constructor(key: K, value: V, timestamp: number, headers: Headers = new Headers()) {
    if (!(timestamp >= 0)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Malformed Record: timestamp may not be negative, got ${timestamp}`)
    }
    this.key = key
    this.value = value
    this.timestamp = timestamp
    this.headers = headers
  }

  /** A copy with another key. */
  withKey<NewK>(key: NewK): Record<NewK, V> {
    return new Record(key, this.value, this.timestamp, this.headers)
  }

  /** A copy with another value. */
  withValue<NewV>(value: NewV): Record<K, NewV> {
    return new Record(this.key, value, this.timestamp, this.headers)
  }

  /** A copy with another timestamp. */
  withTimestamp(timestamp: number): Record<K, V> {
    return new Record(this.key, this.value, timestamp, this.headers)
  }

  /** A copy with other headers. */
  withHeaders(headers: Headers): Record<K, V> {
    return new Record(this.key, this.value, this.timestamp, headers)
  }

  /** The record as Kafka Streams prints it: key, value and timestamp. */
  toString(): string {
    return `Record{key=${String(this.key)}, value=${String(this.value)}, timestamp=${this.timestamp}}`
  }
}

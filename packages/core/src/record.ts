import { StreamsError } from './errors.js'

export interface Header {
  readonly key: string
  readonly value: Buffer | null
}

/** Record headers, an ordered list in which a key may repeat (Kafka's `Headers`). */
export class Headers implements Iterable<Header> {
  readonly #headers: Header[]

  constructor(headers: Iterable<Header> | { readonly [key: string]: string | Buffer | null } = []) {
    if (Symbol.iterator in headers) {
      this.#headers = [...(headers as Iterable<Header>)]
    } else {
      this.#headers = Object.entries(headers).map(([key, value]) => ({
        key,
        value: typeof value === 'string' ? Buffer.from(value) : value
      }))
    }
  }

  add(key: string, value: Buffer | string | null): this {
    this.#headers.push({ key, value: typeof value === 'string' ? Buffer.from(value) : value })
    return this
  }

  remove(key: string): this {
    for (let i = this.#headers.length - 1; i >= 0; i--) {
      if (this.#headers[i]!.key === key) this.#headers.splice(i, 1)
    }
    return this
  }

  lastHeader(key: string): Header | undefined {
    for (let i = this.#headers.length - 1; i >= 0; i--) {
      if (this.#headers[i]!.key === key) return this.#headers[i]
    }
    return undefined
  }

  headers(key: string): Header[] {
    return this.#headers.filter(h => h.key === key)
  }

  toArray(): Header[] {
    return [...this.#headers]
  }

  get size(): number {
    return this.#headers.length
  }

  [Symbol.iterator](): Iterator<Header> {
    return this.#headers[Symbol.iterator]()
  }

  copy(): Headers {
    return new Headers(this.#headers)
  }
}

/**
 * A record flowing through a topology (Kafka Streams' `api.Record`). Immutable: the `with*`
 * methods return a new record.
 */
export class Record<K, V> {
  readonly key: K
  readonly value: V
  readonly timestamp: number
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

  withKey<NewK>(key: NewK): Record<NewK, V> {
    return new Record(key, this.value, this.timestamp, this.headers)
  }

  withValue<NewV>(value: NewV): Record<K, NewV> {
    return new Record(this.key, value, this.timestamp, this.headers)
  }

  withTimestamp(timestamp: number): Record<K, V> {
    return new Record(this.key, this.value, timestamp, this.headers)
  }

  withHeaders(headers: Headers): Record<K, V> {
    return new Record(this.key, this.value, this.timestamp, headers)
  }

  toString(): string {
    return `Record{key=${String(this.key)}, value=${String(this.value)}, timestamp=${this.timestamp}}`
  }
}

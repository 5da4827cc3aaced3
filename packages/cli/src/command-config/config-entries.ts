/**
 * The entries of a `--command-config` file as the mapping reads them: values trimmed (Kafka's
 * ConfigDef trims every string and password), the line each came from, and errors that name
 * the file, the key and its line, never the value. @internal
 */
import { CommandConfigError } from './command-config-error.js'
import type { PropertyEntry } from './java-properties.js'

/** The keys of a properties file, read by key. */
export class ConfigEntries {
  readonly #source: string
  readonly #entries: ReadonlyMap<string, PropertyEntry>

  constructor(source: string, entries: readonly PropertyEntry[]) {
    this.#source = source
    this.#entries = new Map(entries.map(e => [e.key, e]))
  }

  /** The file, as errors name it. */
  get source(): string {
    return this.#source
  }

  /** The keys, in file order. */
  keys(): string[] {
    return [...this.#entries.keys()]
  }

  has(key: string): boolean {
    return this.#entries.has(key)
  }

  /** The trimmed value of `key`, or undefined when it is not set. */
  get(key: string): string | undefined {
    return this.#entries.get(key)?.value.trim()
  }

  /** The value of `key`, which must be set and not empty. */
  require(key: string, why: string): string {
    const value = this.get(key)
    if (value === undefined || value === '') throw this.error(key, `is required ${why}`)
    return value
  }

  /** A positive integer value (`what` says what it is), or undefined. */
  positiveInteger(key: string): number | undefined {
    const value = this.get(key)
    if (value === undefined) return undefined
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) <= 0)
      throw this.error(key, `must be a positive integer, got '${value}'`)
    return Number(value)
  }

  /** A CommandConfigError about `key`: `<file>: <key> (line n) <message>`. */
  error(key: string, message: string, cause?: unknown): CommandConfigError {
    const line = this.#entries.get(key)?.line
    return new CommandConfigError(`${this.#source}: ${key}${line === undefined ? '' : ` (line ${line})`} ${message}`, {
      key,
      ...(cause === undefined ? {} : { cause })
    })
  }
}

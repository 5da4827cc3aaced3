/**
 * Argument checks shared by the `Topology` builder methods: names, topics, patterns, suppliers
 * and store builders. Each failure is a `TopologyError` naming what is wrong. @internal
 */
import { TopologyError } from '../errors.js'
import type { ProcessorSupplier } from '../processor/api.js'
import type { StateStore, StoreBuilder } from '../state/state-store.js'

/** Node, store and topic names must be non-empty strings. */
export function checkName(what: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new TopologyError('TOPOLOGY_INVALID', `${what} name must be a non-empty string, got ${describeValue(name)}.`)
  }
}

export function checkSupplier(processorName: string, supplier: unknown): asserts supplier is ProcessorSupplier<any, any, any, any> {
  if (typeof supplier !== 'function') {
    throw new TopologyError(
      'TOPOLOGY_INVALID',
      `The supplier of processor ${processorName} must be a function, got ${describeValue(supplier)}.`
    )
  }
}

/**
 * Like Kafka Streams (`ApiUtils.checkSupplier`), calls the supplier twice and rejects it when it
 * returns the same instance: every task needs its own processor.
 */
export function checkSupplierReturnsNewInstances(processorName: string, supplier: ProcessorSupplier<any, any, any, any>): void {
  // biome-ignore lint/suspicious/noSelfCompare: two calls, compared for identity
  if (supplier() === supplier()) {
    throw new TopologyError(
      'ILLEGAL_ARGUMENT',
      `The supplier of processor ${processorName} returned the same processor twice; it must return a new processor on every call.`
    )
  }
}

export function checkStoreBuilder(storeBuilder: unknown): asserts storeBuilder is StoreBuilder<StateStore> {
  const candidate = storeBuilder as Partial<StoreBuilder<StateStore>> | null | undefined
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.build !== 'function') {
    throw new TopologyError(
      'TOPOLOGY_INVALID',
      `A store builder must be an object with a build() method, got ${describeValue(storeBuilder)}.`
    )
  }
  checkName('Store', candidate.name)
}

/**
 * Turns logging off on a store whose changelog is its source topic (Kafka calls
 * `storeBuilder.withLoggingDisabled()`); a builder without that method that still logs is
 * rejected, naming the store.
 */
export function disableLogging(storeBuilder: StoreBuilder<StateStore>): void {
  const candidate = storeBuilder as StoreBuilder<StateStore> & { withLoggingDisabled?: () => unknown }
  if (typeof candidate.withLoggingDisabled === 'function') candidate.withLoggingDisabled()
  if (storeBuilder.loggingEnabled) {
    throw new TopologyError(
      'TOPOLOGY_INVALID',
      `Store ${storeBuilder.name} must not have logging enabled: its source topic is its changelog, and its builder has no withLoggingDisabled().`
    )
  }
}

/**
 * A copy of `pattern` that matches whole topic names only, like Java's `Matcher.matches()`
 * (and without the `g`/`y` flags, whose `lastIndex` would make `test()` stateful).
 */
export function wholeNameMatcher(pattern: RegExp): RegExp {
  return new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace(/[gy]/g, ''))
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  if (value === null) return 'null'
  return typeof value
}

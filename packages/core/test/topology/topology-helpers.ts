/** Test helpers for topology tests: no-op processors, fake store builders, and the script format of the golden fixtures. */
import type { Processor, ProcessorSupplier } from '../../src/processor/api.js'
import type { StateStore, StoreBuilder } from '../../src/state/state-store.js'
import { Topology } from '../../src/topology/topology.js'

/** A supplier of processors that ignore their input (a new instance per call). */
export function noop(): ProcessorSupplier<unknown, unknown> {
  return (): Processor<unknown, unknown> => ({ process() {} })
}

/** A store builder that is never built in these tests. */
export function storeBuilder(name: string): StoreBuilder<StateStore> {
  return {
    name,
    build: () => {
      throw new Error(`store ${name} is not built in topology tests`)
    },
    loggingEnabled: false,
    logConfig: {}
  }
}

function list(text: string | undefined): string[] {
  return text === undefined || text === '' ? [] : text.split(',')
}

/**
 * Builds a topology from the script lines of describe-golden.json (see its "about"): the same
 * operations DescribeOracle.java performs on Kafka Streams' Topology.
 */
export function topologyFromScript(lines: readonly string[]): Topology {
  const topology = new Topology()
  for (const line of lines) {
    const [op, a, b, c, d] = line.split(' ')
    switch (op) {
      case 'source':
        topology.addSource(a!, list(b))
        break
      case 'pattern':
        topology.addSource(a!, new RegExp(b!))
        break
      case 'processor':
        topology.addProcessor(a!, noop(), ...list(b))
        break
      case 'sink':
        topology.addSink(a!, b!, ...list(c))
        break
      case 'store':
        topology.addStateStore(storeBuilder(a!), ...list(b))
        break
      case 'connect':
        topology.connectProcessorAndStateStores(a!, ...list(b))
        break
      case 'global':
        topology.addGlobalStore(storeBuilder(a!), b!, {}, c!, d!, noop())
        break
      default:
        throw new Error(`unknown script line: ${line}`)
    }
  }
  return topology
}

/**
 * Loads the topology of an ES module for `kstreams describe`: the module's default export or its
 * `topology` export, which may be a Topology, a StreamsBuilder (built), or a function (sync or
 * async) returning either. Recognised by shape (`describe()`, `build()`), so a module that loaded
 * its own copy of @kstreams/core still works. @internal
 */
import type { TopologyDescription } from '@kstreams/core'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CliError } from './cli-error.js'

interface Describable {
  describe(): TopologyDescription
}

/** The description of the topology `path` exports (relative to `cwd`); a CliError naming the module otherwise. */
export async function loadTopologyDescription(path: string, cwd: string): Promise<TopologyDescription> {
  const file = resolve(cwd, path)
  if (!existsSync(file)) throw new CliError('ILLEGAL_ARGUMENT', `Module ${file} does not exist`)
  let module: Record<string, unknown>
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  } catch (error) {
    throw new CliError('ILLEGAL_ARGUMENT', `Module ${file} could not be loaded: ${(error as Error).message}`, { cause: error })
  }
  const exported = module.default ?? module.topology
  if (exported === undefined) throw new CliError('TOPOLOGY_INVALID', `Module ${file} has no default export and no export named 'topology'`)
  let value: unknown = exported
  if (typeof value === 'function' && !isDescribable(value) && !isBuilder(value)) {
    try {
      value = await (value as () => unknown)()
    } catch (error) {
      throw new CliError('TOPOLOGY_INVALID', `The function exported by ${file} threw: ${(error as Error).message}`, { cause: error })
    }
  }
  if (!isDescribable(value) && isBuilder(value)) value = value.build()
  if (!isDescribable(value))
    throw new CliError(
      'TOPOLOGY_INVALID',
      `Module ${file} exports ${describeValue(value)}, not a Topology, a StreamsBuilder or a function returning one`
    )
  return value.describe()
}

function isDescribable(value: unknown): value is Describable {
  return typeof value === 'object' && value !== null && typeof (value as Describable).describe === 'function'
}

function isBuilder(value: unknown): value is { build(): unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { build?: unknown }).build === 'function'
}

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'no prototype'})`
  return `a ${typeof value}`
}

/**
 * The internal seam between the public `Topology` builder and the runtime: a symbol-keyed method
 * returning the plain `TopologyDef`. Not exported from the package's public API. @internal
 */

/**
 * `topology[TOPOLOGY_DEF]()` returns the validated `TopologyDef` of a `Topology` as it is now.
 * @internal
 */
export const TOPOLOGY_DEF: unique symbol = Symbol('kstreams.topologyDef')

import { expect } from 'chai'
import { TopologyError } from '../../src/errors.js'
import type { StreamsErrorCode } from '../../src/errors.js'
import type { NodeDef, ProcessorNodeDef, SinkNodeDef, TopologyDef } from '../../src/topology/definitions.js'
import { TOPOLOGY_DEF } from '../../src/topology/internal.js'
import { Topology } from '../../src/topology/topology.js'
import { validateTopologyDef } from '../../src/topology/validate-topology-def.js'
import { noop, storeBuilder } from './topology-helpers.js'

/** source s (t) -> p1 -> p2 -> sink k, store 'store' on p1; a second sub-topology s2 (t2) -> q. */
function validDef(): TopologyDef {
  return new Topology()
    .addSource('s', 't')
    .addProcessor('p1', noop(), 's')
    .addProcessor('p2', noop(), 'p1')
    .addSink('k', 'out', 'p2')
    .addStateStore(storeBuilder('store'), 'p1')
    .addSource('s2', 't2')
    .addProcessor('q', noop(), 's2')
    [TOPOLOGY_DEF]()
}

/** `def` with some nodes replaced (children are recomputed from the parents unless given). */
function withNodes(def: TopologyDef, replace: Record<string, NodeDef>, children?: TopologyDef['children']): TopologyDef {
  const nodes = new Map(def.nodes)
  for (const [name, node] of Object.entries(replace)) nodes.set(name, node)
  const computed = new Map<string, string[]>([...nodes.keys()].map(name => [name, []]))
  for (const node of nodes.values()) if (node.kind !== 'source') for (const parent of node.parents) computed.get(parent)?.push(node.name)
  return { ...def, nodes, children: children ?? computed }
}

function processor(def: TopologyDef, name: string): ProcessorNodeDef {
  return def.nodes.get(name) as ProcessorNodeDef
}

function expectInvalid(def: TopologyDef, code: StreamsErrorCode, name: string): void {
  let thrown: unknown
  try {
    validateTopologyDef(def)
  } catch (error) {
    thrown = error
  }
  expect(thrown, 'expected a TopologyError').to.be.instanceOf(TopologyError)
  expect(thrown).to.have.property('code', code)
  expect((thrown as Error).message).to.contain(name)
}

describe('validateTopologyDef', () => {
  it('accepts what Topology builds', () => {
    expect(() => {
      validateTopologyDef(validDef())
    }).to.not.throw()
  })

  it('detects a parent cycle (TOPOLOGY_CYCLE)', () => {
    // Through Topology a cycle cannot be built: a parent must already exist when its child is
    // added, and nodes are never re-parented. A definition built by other code can contain one:
    // here p1 also reads from p2, its own child.
    const def = validDef()
    const cyclic = withNodes(def, { p1: { ...processor(def, 'p1'), parents: ['s', 'p2'] } })
    expectInvalid(cyclic, 'TOPOLOGY_CYCLE', 'p1')
  })

  it('detects a longer cycle that no source reaches', () => {
    const def = validDef()
    const cyclic = withNodes(def, {
      x: { ...processor(def, 'q'), name: 'x', parents: ['z'] },
      y: { ...processor(def, 'q'), name: 'y', parents: ['x'] },
      z: { ...processor(def, 'q'), name: 'z', parents: ['y'] }
    })
    expectInvalid(cyclic, 'TOPOLOGY_CYCLE', 'x -> ')
  })

  it('detects unknown, self and sink parents', () => {
    const def = validDef()
    expectInvalid(withNodes(def, { p2: { ...processor(def, 'p2'), parents: ['nope'] } }), 'UNKNOWN_NODE', 'nope')
    expectInvalid(withNodes(def, { p2: { ...processor(def, 'p2'), parents: ['p2'] } }), 'INVALID_PARENT', 'p2')
    expectInvalid(withNodes(def, { q: { ...processor(def, 'q'), parents: ['k'] } }), 'INVALID_PARENT', 'k')
  })

  it('detects nodes without parents and sources without topics', () => {
    const def = validDef()
    expectInvalid(withNodes(def, { k: { ...(def.nodes.get('k') as SinkNodeDef), parents: [] } }), 'SINK_WITHOUT_PARENT', 'k')
    expectInvalid(withNodes(def, { q: { ...processor(def, 'q'), parents: [] } }), 'TOPOLOGY_INVALID', 'q')
    expectInvalid(
      withNodes(def, { s2: { ...(def.nodes.get('s2') as NodeDef & { kind: 'source' }), topics: [] } }),
      'TOPOLOGY_INVALID',
      's2'
    )
  })

  it('detects a topic read twice and a store without builder', () => {
    const def = validDef()
    expectInvalid(
      withNodes(def, { s2: { ...(def.nodes.get('s2') as NodeDef & { kind: 'source' }), topics: ['t'] } }),
      'DUPLICATE_TOPIC',
      't'
    )
    expectInvalid(withNodes(def, { q: { ...processor(def, 'q'), stores: new Set(['ghost']) } }), 'UNKNOWN_STORE', 'ghost')
  })

  it('detects children that do not match the parents', () => {
    const def = validDef()
    expectInvalid({ ...def, children: new Map([...def.children, ['s', ['p2']]]) }, 'TOPOLOGY_INVALID', 's')
  })

  it('detects inconsistent sub-topologies', () => {
    const def = validDef()
    const [first, second] = def.subtopologies
    expectInvalid({ ...def, subtopologies: [first!] }, 'TOPOLOGY_INVALID', 's2')
    expectInvalid({ ...def, subtopologies: [first!, { ...second!, nodes: [...second!.nodes, 'p1'] }] }, 'TOPOLOGY_INVALID', 'p1')
    expectInvalid(
      {
        ...def,
        subtopologies: [
          { ...first!, nodes: first!.nodes.filter(n => n !== 'p2') },
          { ...second!, nodes: [...second!.nodes, 'p2'] }
        ]
      },
      'TOPOLOGY_INVALID',
      'p2'
    )
    const sharedStore = withNodes(def, { q: { ...processor(def, 'q'), stores: new Set(['store']) } })
    expectInvalid(sharedStore, 'TOPOLOGY_INVALID', 'store')
  })
})

/**
 * The in-memory session store: the session compliance suite (bytes store alone and under the
 * metered layer), then what is specific to it: the supplier and its argument checks, restore from
 * changelog records, Kafka's iteration order and iterator snapshots.
 */
import { expect } from 'chai'
import { Serdes, SessionWindow, Windowed } from '@kstreams/core'
import type { KeyValueIterator, SessionStore } from '@kstreams/core'
import { SessionKeySchema } from '@kstreams/core/internal'
import { codeOf } from '../src/compliance/expect-code.js'
import { sessionStoreCompliance } from '../src/compliance/session/index.js'
import { createTestStoreContext } from '../src/compliance/test-context.js'
import { InMemorySessionBytesStoreSupplier } from '../src/in-memory-session-bytes-store-supplier.js'
import { InMemorySessionStore } from '../src/in-memory-session-store.js'
import { Stores } from '../src/stores.js'
import { inMemorySessionHarness } from './helpers/windowed-store-harnesses.js'
import { intSerde, stringSerde } from './helpers/test-serdes.js'

sessionStoreCompliance(inMemorySessionHarness({ retentionPeriod: 1000, metered: false }))
sessionStoreCompliance(inMemorySessionHarness({ retentionPeriod: 1000, metered: true }))
sessionStoreCompliance(inMemorySessionHarness({ retentionPeriod: 20, metered: false }))

const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const session = (key: string, start: number, end: number): Windowed<Buffer> => new Windowed(s(key), new SessionWindow(start, end))
const entries = (it: KeyValueIterator<Windowed<Buffer>, Buffer>): string[] =>
  [...it].map(kv => `${kv.key.key.toString()}@${kv.key.window.start}/${kv.key.window.end}=${kv.value.toString()}`)

function openStore(retentionPeriod = 1000): { store: SessionStore<Buffer, Buffer>; context: ReturnType<typeof createTestStoreContext> } {
  const store = Stores.inMemorySessionStore('sessions', retentionPeriod).get()
  const context = createTestStoreContext()
  store.init(context, store)
  return { store, context }
}

describe('InMemorySessionStore', () => {
  describe('supplier', () => {
    it('supplies a new in-memory session store per get(), scope in-memory-session, segment interval 1', () => {
      const supplier = Stores.inMemorySessionStore('sessions', 500)
      expect(supplier).to.be.instanceOf(InMemorySessionBytesStoreSupplier)
      expect([supplier.name, supplier.metricsScope, supplier.retentionPeriod, supplier.segmentInterval]).to.deep.equal([
        'sessions',
        'in-memory-session',
        500,
        1
      ])
      const a = supplier.get()
      expect(a).to.be.instanceOf(InMemorySessionStore)
      expect(a).to.not.equal(supplier.get())
      expect([a.name, a.persistent, a.isOpen()]).to.deep.equal(['sessions', false, false])
    })

    for (const [what, call] of [
      ['a negative retention', () => Stores.inMemorySessionStore('s', -1)],
      ['a fractional retention', () => Stores.inMemorySessionStore('s', 0.5)],
      ['an illegal name', () => Stores.inMemorySessionStore('', 10)]
    ] as Array<[string, () => unknown]>) {
      it(`rejects ${what} with ILLEGAL_ARGUMENT`, () => {
        expect(codeOf(call)).to.equal('ILLEGAL_ARGUMENT')
      })
    }
  })

  describe('lifecycle and restore', () => {
    it('a second init while open (a recycled standby) keeps the data and the observed stream time; reopens empty after close', () => {
      const { store } = openStore()
      store.put(session('a', 1500, 1600), s('1'))
      const context = createTestStoreContext()
      store.init(context, store)
      expect(context.registered.map(r => r.store)).to.deep.equal([store])
      store.put(session('c', 10, 20), s('3')) // expired: the stream time observed before the re-init is 1600
      context.restore('sessions', [{ key: SessionKeySchema.toBinary(s('b'), 1550, 1560), value: s('2') }])
      expect(entries(store.fetch(undefined, undefined))).to.deep.equal(['b@1550/1560=2', 'a@1500/1600=1'])
      store.close()
      store.init(createTestStoreContext(), store)
      expect(entries(store.fetch(undefined, undefined))).to.deep.equal([])
    })

    it('restores changelog records keyed [key][end][start]; a null value removes the session', () => {
      const { store, context } = openStore()
      context.restore('sessions', [
        { key: SessionKeySchema.toBinary(s('a'), 10, 20), value: s('1') },
        { key: SessionKeySchema.toBinary(s('b'), 15, 30), value: s('2') },
        { key: SessionKeySchema.toBinary(s('a'), 10, 20), value: null }
      ])
      expect(entries(store.fetch(undefined, undefined))).to.deep.equal(['b@15/30=2'])
    })

    it('rejects a session key without a window with ILLEGAL_ARGUMENT', () => {
      const { store } = openStore()
      expect(codeOf(() => store.put({ key: s('a') } as unknown as Windowed<Buffer>, s('1')))).to.equal('ILLEGAL_ARGUMENT')
      expect(codeOf(() => store.findSessions(null as unknown as Buffer, 0, 10))).to.equal('ILLEGAL_ARGUMENT')
    })
  })

  describe('Kafka order', () => {
    it('orders by end, then key, then start descending; backward is the exact reverse', () => {
      const { store } = openStore()
      store.put(session('b', 5, 10), s('b'))
      store.put(session('a', 2, 10), s('a2'))
      store.put(session('a', 8, 10), s('a8'))
      store.put(session('a', 0, 4), s('a0'))
      const forward = ['a@0/4=a0', 'a@8/10=a8', 'a@2/10=a2', 'b@5/10=b']
      expect(entries(store.fetch(undefined, undefined))).to.deep.equal(forward)
      expect(entries(store.backwardFetch(undefined, undefined))).to.deep.equal([...forward].reverse())
      expect(entries(store.findSessions(0, 100))).to.deep.equal(forward)
    })

    it('a session that expired is dropped, and the time at which it does is its end + retention', () => {
      const { store } = openStore(10)
      store.put(session('a', 0, 5), s('1'))
      store.put(session('b', 14, 14), s('2'))
      expect(store.fetchSession(s('a'), 0, 5)?.toString()).to.equal('1')
      store.put(session('b', 15, 15), s('3'))
      expect(store.fetchSession(s('a'), 0, 5)).to.equal(null)
    })
  })

  describe('iterator snapshots', () => {
    it('an iterator sees the sessions present when it was created, with their current values', () => {
      const { store } = openStore()
      store.put(session('a', 1, 2), s('1'))
      store.put(session('b', 1, 2), s('2'))
      store.put(session('c', 3, 4), s('3'))
      const iterator = store.fetch(undefined, undefined)
      store.put(session('a', 1, 2), s('1b'))
      store.remove(session('b', 1, 2))
      store.put(session('d', 3, 4), s('4'))
      expect(entries(iterator)).to.deep.equal(['a@1/2=1b', 'c@3/4=3'])
    })

    it('sessions that expire while an iterator is open stay readable through it', () => {
      const { store } = openStore(10)
      store.put(session('a', 0, 1), s('1'))
      const iterator = store.fetch(s('a'))
      store.put(session('b', 50, 50), s('2'))
      expect(entries(iterator)).to.deep.equal(['a@0/1=1'])
      expect(entries(store.fetch(s('a')))).to.deep.equal([])
    })
  })

  describe('through Stores.sessionStoreBuilder', () => {
    it('builds a typed store over the supplier', () => {
      const store = Stores.sessionStoreBuilder(Stores.inMemorySessionStore('typed', 1000), stringSerde, intSerde).build()
      store.init(createTestStoreContext(), store)
      store.put(new Windowed('k', new SessionWindow(1, 5)), 3)
      expect(store.fetchSession('k', 1, 5)).to.equal(3)
      const found = [...store.findSessions('k', 0, 10)].map(kv => `${kv.key.key}@${kv.key.window.start}/${kv.key.window.end}=${kv.value}`)
      expect(found).to.deep.equal(['k@1/5=3'])
      store.remove(new Windowed('k', new SessionWindow(1, 5)))
      expect(store.fetchSession('k', 1, 5)).to.equal(null)
    })

    it('falls back to the default serdes; exposes the retention period', () => {
      const builder = Stores.sessionStoreBuilder<string, string>(Stores.inMemorySessionStore('defaults', 700))
      expect(builder.retentionPeriod).to.equal(700)
      const store = builder.build()
      store.init(createTestStoreContext({ config: { defaultKeySerde: Serdes.String(), defaultValueSerde: Serdes.String() } }), store)
      store.put(new Windowed('k', new SessionWindow(0, 0)), 'v')
      expect(store.fetchSession('k', 0, 0)).to.equal('v')
    })

    it('rejects a supplier without get() with ILLEGAL_ARGUMENT', () => {
      expect(codeOf(() => Stores.sessionStoreBuilder({ name: 'x' } as never))).to.equal('ILLEGAL_ARGUMENT')
    })
  })
})

/**
 * The in-memory window store: the window compliance suite (bytes store alone and under the metered
 * layer, with and without retainDuplicates), then what is specific to it: the supplier and its
 * argument checks, restore from changelog records, iterator snapshots and Kafka's quirks.
 */
import { expect } from 'chai'
import { Serdes, ValueAndTimestamp } from '@kstreams/core'
import type { KeyValueIterator, WindowStore, Windowed } from '@kstreams/core'
import { WindowKeySchema } from '@kstreams/core/internal'
import { codeOf } from '../src/compliance/expect-code.js'
import { createTestStoreContext } from '../src/compliance/test-context.js'
import { windowStoreCompliance } from '../src/compliance/window/index.js'
import { InMemoryWindowBytesStoreSupplier } from '../src/in-memory-window-bytes-store-supplier.js'
import { InMemoryWindowStore } from '../src/in-memory-window-store.js'
import { Stores } from '../src/stores.js'
import { inMemoryWindowHarness } from './helpers/windowed-store-harnesses.js'
import { intSerde, stringSerde } from './helpers/test-serdes.js'

for (const metered of [false, true]) {
  for (const retainDuplicates of [false, true]) {
    windowStoreCompliance(inMemoryWindowHarness({ retentionPeriod: 1000, windowSize: 100, retainDuplicates, metered }))
  }
}
windowStoreCompliance(inMemoryWindowHarness({ retentionPeriod: 40, windowSize: 40, retainDuplicates: false, metered: false }))

const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const times = (it: KeyValueIterator<number, Buffer>): string[] => [...it].map(kv => `${kv.key}=${kv.value.toString()}`)
const windowed = (it: KeyValueIterator<Windowed<Buffer>, Buffer>): string[] =>
  [...it].map(kv => `${kv.key.key.toString()}@${kv.key.window.start}/${kv.key.window.end}=${kv.value.toString()}`)

function openStore(
  retentionPeriod = 1000,
  windowSize = 10,
  retainDuplicates = false
): { store: WindowStore<Buffer, Buffer>; context: ReturnType<typeof createTestStoreContext> } {
  const store = Stores.inMemoryWindowStore('win', retentionPeriod, windowSize, retainDuplicates).get()
  const context = createTestStoreContext()
  store.init(context, store)
  return { store, context }
}

describe('InMemoryWindowStore', () => {
  describe('supplier', () => {
    it('supplies a new in-memory window store per get(), scope in-memory-window, segment interval 1', () => {
      const supplier = Stores.inMemoryWindowStore('win', 1000, 100, true)
      expect(supplier).to.be.instanceOf(InMemoryWindowBytesStoreSupplier)
      expect([
        supplier.name,
        supplier.metricsScope,
        supplier.retentionPeriod,
        supplier.windowSize,
        supplier.retainDuplicates,
        supplier.segmentInterval
      ]).to.deep.equal(['win', 'in-memory-window', 1000, 100, true, 1])
      const a = supplier.get()
      expect(a).to.be.instanceOf(InMemoryWindowStore)
      expect(a).to.not.equal(supplier.get())
      expect([a.name, a.persistent, a.isOpen()]).to.deep.equal(['win', false, false])
    })

    it('accepts retention equal to window size, and zero for both', () => {
      expect(Stores.inMemoryWindowStore('w', 50, 50, false).retentionPeriod).to.equal(50)
      expect(Stores.inMemoryWindowStore('w', 0, 0, false).windowSize).to.equal(0)
    })

    const invalid: Array<[string, () => unknown]> = [
      ['a negative retention', () => Stores.inMemoryWindowStore('w', -1, 0, false)],
      ['a negative window size', () => Stores.inMemoryWindowStore('w', 10, -1, false)],
      ['a window size above the retention', () => Stores.inMemoryWindowStore('w', 10, 11, false)],
      ['a fractional retention', () => Stores.inMemoryWindowStore('w', 10.5, 1, false)],
      ['a NaN window size', () => Stores.inMemoryWindowStore('w', 10, NaN, false)],
      ['a non-boolean retainDuplicates', () => Stores.inMemoryWindowStore('w', 10, 1, 'yes' as unknown as boolean)],
      ['an illegal name', () => Stores.inMemoryWindowStore('a/b', 10, 1, false)]
    ]
    for (const [what, call] of invalid) {
      it(`rejects ${what} with ILLEGAL_ARGUMENT`, () => {
        expect(codeOf(call)).to.equal('ILLEGAL_ARGUMENT')
      })
    }

    it('names the store in the retention/window size error', () => {
      try {
        Stores.inMemoryWindowStore('my-window', 10, 11, false)
        expect.fail('no error')
      } catch (err) {
        expect((err as Error).message).to.contain('my-window')
      }
    })
  })

  describe('lifecycle and restore', () => {
    it('a second init while open (a recycled standby) keeps the data and the observed stream time; reopens empty after close', () => {
      const { store } = openStore()
      store.put(s('a'), s('1'), 1500)
      store.put(s('b'), s('2'), 2000)
      const context = createTestStoreContext()
      store.init(context, store)
      expect(context.registered.map(r => r.store)).to.deep.equal([store])
      store.put(s('c'), s('3'), 900) // expired: the stream time observed before the re-init is 2000
      context.restore('win', [{ key: WindowKeySchema.toStoreKeyBinary(s('d'), 1990, 0), value: s('4') }])
      expect(windowed(store.all())).to.deep.equal(['a@1500/1510=1', 'd@1990/2000=4', 'b@2000/2010=2'])
      store.close()
      store.init(createTestStoreContext(), store)
      expect(windowed(store.all())).to.deep.equal([])
    })

    it('registers with its root and restores changelog records keyed [key][start][seqnum]', () => {
      const { store, context } = openStore()
      expect(context.registered.map(r => r.store)).to.deep.equal([store])
      context.restore('win', [
        { key: WindowKeySchema.toStoreKeyBinary(s('a'), 10, 0), value: s('1') },
        { key: WindowKeySchema.toStoreKeyBinary(s('b'), 20, 0), value: s('2') },
        { key: WindowKeySchema.toStoreKeyBinary(s('a'), 10, 0), value: null }
      ])
      expect(windowed(store.all())).to.deep.equal(['b@20/30=2'])
    })

    it('restores every duplicate and ignores null values when retaining duplicates', () => {
      const { store, context } = openStore(1000, 10, true)
      context.restore('win', [
        { key: WindowKeySchema.toStoreKeyBinary(s('a'), 10, 1), value: s('1') },
        { key: WindowKeySchema.toStoreKeyBinary(s('a'), 10, 2), value: s('2') },
        { key: WindowKeySchema.toStoreKeyBinary(s('a'), 10, 3), value: null }
      ])
      expect(times(store.fetch(s('a'), 0, 100))).to.deep.equal(['10=1', '10=2'])
    })

    it('drops expired changelog records on restore, as stream time advances', () => {
      const { store, context } = openStore(100, 10)
      context.restore('win', [
        { key: WindowKeySchema.toStoreKeyBinary(s('a'), 0, 0), value: s('old') },
        { key: WindowKeySchema.toStoreKeyBinary(s('b'), 100, 0), value: s('new') }
      ])
      expect(windowed(store.all())).to.deep.equal(['b@100/110=new'])
    })
  })

  describe('Kafka behaviours', () => {
    it('rejects a null key with ILLEGAL_ARGUMENT', () => {
      const { store } = openStore()
      expect(codeOf(() => store.put(null as unknown as Buffer, s('1'), 0))).to.equal('ILLEGAL_ARGUMENT')
      expect(codeOf(() => store.fetch(null as unknown as Buffer, 0))).to.equal('ILLEGAL_ARGUMENT')
      expect(codeOf(() => store.backwardFetch(null as unknown as Buffer, 0, 10))).to.equal('ILLEGAL_ARGUMENT')
    })

    it('single-window fetch finds nothing when retaining duplicates (keys carry a seqnum)', () => {
      const { store } = openStore(1000, 10, true)
      store.put(s('a'), s('1'), 10)
      expect(store.fetch(s('a'), 10)).to.equal(null)
      expect(times(store.fetch(s('a'), 10, 10))).to.deep.equal(['10=1'])
    })

    it('with window size 0, a single-key fetch works but a windowed key cannot be built', () => {
      const { store } = openStore(10, 0, true)
      store.put(s('a'), s('1'), 5)
      expect(times(store.fetch(s('a'), 0, 10))).to.deep.equal(['5=1'])
      const iterator = store.all()
      expect(codeOf(() => iterator.next())).to.equal('ILLEGAL_ARGUMENT')
      iterator.close()
    })

    it('a window end past Number.MAX_SAFE_INTEGER is capped there', () => {
      const huge = Number.MAX_SAFE_INTEGER - 5
      const { store } = openStore(huge, huge)
      store.put(s('a'), s('1'), 10)
      const entry = store.all().next().value
      expect(entry?.key.window.end).to.equal(Number.MAX_SAFE_INTEGER)
    })

    it('a store with retention 0 drops every put: a window expires as soon as stream time reaches it', () => {
      const { store } = openStore(0, 0)
      store.put(s('a'), s('1'), 5)
      expect(times(store.fetch(s('a'), 0, 10))).to.deep.equal([])
      expect(store.fetch(s('a'), 5)).to.equal(null)
    })
  })

  describe('iterator snapshots', () => {
    it('an iterator sees the windows present when it was created, with their current values', () => {
      const { store } = openStore()
      store.put(s('a'), s('1'), 10)
      store.put(s('b'), s('2'), 10)
      store.put(s('c'), s('3'), 20)
      const iterator = store.fetchAll(0, 100)
      store.put(s('a'), s('1b'), 10)
      store.put(s('b'), null, 10)
      store.put(s('d'), s('4'), 20)
      store.put(s('e'), s('5'), 30)
      expect(windowed(iterator)).to.deep.equal(['a@10/20=1b', 'c@20/30=3'])
    })

    it('windows that expire while an iterator is open stay readable through it', () => {
      const { store } = openStore(100, 10)
      store.put(s('a'), s('1'), 0)
      store.put(s('a'), s('2'), 50)
      const iterator = store.fetch(s('a'), 0, 200)
      store.put(s('b'), s('3'), 150)
      expect(times(iterator)).to.deep.equal(['0=1', '50=2'])
      expect(times(store.fetch(s('a'), 0, 200))).to.deep.equal([])
    })

    it('peekNextKey skips an entry deleted after it was peeked', () => {
      const { store } = openStore()
      store.put(s('a'), s('1'), 10)
      store.put(s('a'), s('2'), 20)
      const iterator = store.fetch(s('a'), 0, 100)
      expect(iterator.peekNextKey()).to.equal(10)
      store.put(s('a'), null, 10)
      expect(iterator.peekNextKey()).to.equal(20)
      expect(iterator.next().value?.key).to.equal(20)
      iterator.close()
    })

    it('next() after a peek whose entry was deleted returns the following entry with its own key', () => {
      const { store } = openStore()
      store.put(s('a'), s('1'), 10)
      store.put(s('b'), s('2'), 10)
      const iterator = store.fetchAll(0, 100)
      expect(iterator.peekNextKey()?.key.toString()).to.equal('a')
      store.put(s('a'), null, 10)
      const next = iterator.next().value
      expect([next?.key.key.toString(), next?.value.toString()]).to.deep.equal(['b', '2'])
      iterator.close()
    })
  })

  describe('through Stores builders', () => {
    it('windowStoreBuilder builds a typed store over the supplier', () => {
      const store = Stores.windowStoreBuilder(Stores.inMemoryWindowStore('typed', 1000, 10, false), stringSerde, intSerde).build()
      store.init(createTestStoreContext(), store)
      store.put('k', 1, 10)
      store.put('k', 2, 20)
      expect(store.fetch('k', 10)).to.equal(1)
      expect([...store.fetch('k', 0, 100)].map(kv => [kv.key, kv.value])).to.deep.equal([
        [10, 1],
        [20, 2]
      ])
      const all = [...store.all()].map(kv => `${kv.key.key}@${kv.key.window.start}/${kv.key.window.end}=${kv.value}`)
      expect(all).to.deep.equal(['k@10/20=1', 'k@20/30=2'])
    })

    it('timestampedWindowStoreBuilder stores ValueAndTimestamp over the same bytes store', () => {
      const store = Stores.timestampedWindowStoreBuilder(Stores.inMemoryWindowStore('ts', 1000, 10, false), stringSerde, intSerde).build()
      store.init(createTestStoreContext(), store)
      store.put('k', ValueAndTimestamp.make(7, 15), 10)
      const value = store.fetch('k', 10)
      expect([value?.value, value?.timestamp]).to.deep.equal([7, 15])
    })

    it('falls back to the default serdes of the config', () => {
      const store = Stores.windowStoreBuilder<string, string>(Stores.inMemoryWindowStore('defaults', 1000, 10, false)).build()
      store.init(createTestStoreContext({ config: { defaultKeySerde: Serdes.String(), defaultValueSerde: Serdes.String() } }), store)
      store.put('k', 'v', 0)
      expect(store.fetch('k', 0)).to.equal('v')
    })

    it('exposes the retention period on the builders', () => {
      expect(Stores.windowStoreBuilder(Stores.inMemoryWindowStore('r', 500, 10, false)).retentionPeriod).to.equal(500)
      expect(Stores.timestampedWindowStoreBuilder(Stores.inMemoryWindowStore('r', 600, 10, false)).retentionPeriod).to.equal(600)
    })

    it('rejects a supplier without get(), or a bad serde, with ILLEGAL_ARGUMENT', () => {
      expect(codeOf(() => Stores.windowStoreBuilder({} as never))).to.equal('ILLEGAL_ARGUMENT')
      expect(codeOf(() => Stores.windowStoreBuilder(Stores.inMemoryWindowStore('x', 10, 1, false), {} as never))).to.equal(
        'ILLEGAL_ARGUMENT'
      )
    })
  })
})

import { expect } from 'chai'
import { Headers } from '../../../src/record.js'
import type { ProcessorRecordContext } from '../../../src/runtime/record-context.js'
import type { DirtyEntry } from '../../../src/state/cache/dirty-entry.js'
import { LRUCacheEntry } from '../../../src/state/cache/lru-cache-entry.js'
import { ThreadCache } from '../../../src/state/cache/thread-cache.js'
import { codeOf } from '../helpers/expect-code.js'

const s = (text: string): Buffer => Buffer.from(text, 'latin1')
const ctx = (timestamp: number, topic = 't'): ProcessorRecordContext => ({
  topic,
  partition: 0,
  offset: 0,
  timestamp,
  headers: new Headers()
})
const dirty = (value: string | null, timestamp = 0): LRUCacheEntry => LRUCacheEntry.dirty(value === null ? null : s(value), ctx(timestamp))

/** Key bytes + 24 node overhead + 1 dirty flag + value + 8 + 8 + 4 + topic characters (+ headers). */
function nodeSize(key: string, value: string | null, topic = 't'): number {
  return key.length + 24 + 1 + (value === null ? 0 : value.length) + 20 + topic.length
}

interface Flushed {
  key: string
  value: string | null
  timestamp: number
}

function listen(cache: ThreadCache, namespace: string): Flushed[][] {
  const batches: Flushed[][] = []
  cache.addDirtyEntryFlushListener(namespace, (entries: DirtyEntry[]) => {
    batches.push(
      entries.map(e => ({
        key: e.key.toString('latin1'),
        value: e.newValue === null ? null : e.newValue.toString('latin1'),
        timestamp: e.entry.recordContext.timestamp
      }))
    )
  })
  return batches
}

const keysOf = (it: ReturnType<ThreadCache['all']>): string[] => {
  const out: string[] = []
  for (let row = it.next(); row !== undefined; row = it.next()) out.push(row.key.toString('latin1'))
  return out
}

describe('ThreadCache', () => {
  it('names a cache <taskId>-<storeName>', () => {
    expect(ThreadCache.nameSpaceFromTaskIdAndStore('0_1', 'counts')).to.equal('0_1-counts')
  })

  it('accounts each entry as key + 24 + 1 + value + record context bytes (Kafka sizes)', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 10_000 })
    listen(cache, 'a')
    cache.put('a', s('k1'), dirty('vvv'))
    expect(cache.sizeBytes()).to.equal(nodeSize('k1', 'vvv'))
    const headers = new Headers().add('hk', Buffer.from([1, 2, 3]))
    cache.put('a', s('k2'), LRUCacheEntry.dirty(s('v'), { topic: 'topic', partition: 0, offset: 0, timestamp: 0, headers }))
    expect(cache.sizeBytes()).to.equal(nodeSize('k1', 'vvv') + nodeSize('k2', 'v', 'topic') + 2 + 3)
    cache.put('a', s('k1'), dirty(null))
    expect(cache.sizeBytes()).to.equal(nodeSize('k1', null) + nodeSize('k2', 'v', 'topic') + 5)
    expect(cache.size()).to.equal(2)
    cache.put('a', s('k3'), LRUCacheEntry.clean(s('xy')))
    // A clean entry read from below has an empty context: no topic.
    expect(cache.sizeBytes()).to.equal(nodeSize('k1', null) + nodeSize('k2', 'v', 'topic') + 5 + nodeSize('k3', 'xy', ''))
  })

  it('evicts the least recently used entry of the cache being written when over budget', () => {
    const one = nodeSize('a', '1', '')
    const cache = new ThreadCache({ maxCacheSizeBytes: 2 * one })
    cache.put('n', s('a'), LRUCacheEntry.clean(s('1')))
    cache.put('n', s('b'), LRUCacheEntry.clean(s('2')))
    expect(cache.get('n', s('a'))?.value?.toString()).to.equal('1')
    cache.put('n', s('c'), LRUCacheEntry.clean(s('3')))
    expect(cache.get('n', s('b'))).to.equal(undefined)
    expect(cache.namedCache('n')!.lruKeys).to.deep.equal(['a', 'c'])
    expect(cache.evicts).to.equal(1)
    expect(cache.sizeBytes()).to.equal(2 * one)
  })

  it('evicts only from the cache that was written, even when another cache is older', () => {
    const one = nodeSize('a', '1', '')
    const cache = new ThreadCache({ maxCacheSizeBytes: 3 * one })
    cache.put('old', s('a'), LRUCacheEntry.clean(s('1')))
    cache.put('old', s('b'), LRUCacheEntry.clean(s('2')))
    cache.put('new', s('x'), LRUCacheEntry.clean(s('1')))
    cache.put('new', s('y'), LRUCacheEntry.clean(s('2')))
    expect(cache.namedCache('old')!.lruKeys).to.deep.equal(['a', 'b'])
    expect(cache.namedCache('new')!.lruKeys).to.deep.equal(['y'])
  })

  it('flushes every dirty entry of the cache when a dirty entry is evicted: the evicted one first, then in write order', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 3 * nodeSize('a', '1') })
    const flushed = listen(cache, 'n')
    cache.put('n', s('a'), dirty('1', 10))
    cache.put('n', s('b'), dirty('2', 20))
    cache.put('n', s('c'), dirty('3', 30))
    cache.get('n', s('a')) // a is now the most recently used; b is the eldest
    cache.put('n', s('d'), dirty('4', 40))
    expect(flushed).to.deep.equal([
      [
        { key: 'b', value: '2', timestamp: 20 },
        { key: 'a', value: '1', timestamp: 10 },
        { key: 'c', value: '3', timestamp: 30 },
        { key: 'd', value: '4', timestamp: 40 }
      ]
    ])
    const named = cache.namedCache('n')!
    expect(named.dirtyKeys).to.deep.equal([])
    expect(named.lruKeys).to.deep.equal(['c', 'a', 'd'])
  })

  it('keeps dirty keys in the order of their last write and the last value of each key', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 10_000 })
    const flushed = listen(cache, 'n')
    cache.put('n', s('a'), dirty('1', 1))
    cache.put('n', s('b'), dirty('2', 2))
    cache.put('n', s('a'), dirty('3', 3))
    cache.flush('n')
    expect(flushed).to.deep.equal([
      [
        { key: 'b', value: '2', timestamp: 2 },
        { key: 'a', value: '3', timestamp: 3 }
      ]
    ])
    cache.flush('n')
    expect(flushed).to.have.length(1)
  })

  it('drops flushed deletes from the cache and keeps flushed values as clean entries', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 10_000 })
    listen(cache, 'n')
    cache.put('n', s('a'), dirty('1'))
    cache.put('n', s('b'), dirty(null))
    cache.flush('n')
    expect(cache.get('n', s('b'))).to.equal(undefined)
    const a = cache.get('n', s('a'))!
    expect(a.isDirty).to.equal(false)
    expect(cache.sizeBytes()).to.equal(nodeSize('a', '1'))
  })

  it('lets a flush listener write to the cache again', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 10_000 })
    const seen: string[] = []
    cache.addDirtyEntryFlushListener('n', entries => {
      for (const e of entries) {
        seen.push(e.key.toString())
        if (e.key.toString() === 'a') cache.put('n', s('z'), dirty('again'))
      }
    })
    cache.put('n', s('a'), dirty('1'))
    cache.flush('n')
    expect(seen).to.deep.equal(['a'])
    expect(cache.namedCache('n')!.dirtyKeys).to.deep.equal(['z'])
  })

  it('with a budget of 0 bytes every dirty write is flushed at once', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 0 })
    const flushed = listen(cache, 'n')
    cache.put('n', s('a'), dirty('1'))
    cache.put('n', s('a'), dirty('2'))
    expect(flushed).to.deep.equal([[{ key: 'a', value: '1', timestamp: 0 }], [{ key: 'a', value: '2', timestamp: 0 }]])
    expect(cache.sizeBytes()).to.equal(0)
  })

  it('refuses a clean entry over a dirty one, and a flush without listener', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 10_000 })
    cache.put('n', s('a'), dirty('1'))
    expect(
      codeOf(() => {
        cache.put('n', s('a'), LRUCacheEntry.clean(s('2')))
      })
    ).to.equal('ILLEGAL_STATE')
    expect(
      codeOf(() => {
        cache.flush('n')
      })
    ).to.equal('ILLEGAL_STATE')
    expect(codeOf(() => new ThreadCache({ maxCacheSizeBytes: -1 }))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('putIfAbsent keeps the cached entry; delete removes without flushing', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 10_000 })
    const flushed = listen(cache, 'n')
    expect(cache.putIfAbsent('n', s('a'), dirty('1'))).to.equal(undefined)
    expect(cache.putIfAbsent('n', s('a'), dirty('2'))?.value?.toString()).to.equal('1')
    expect(cache.delete('n', s('a'))?.value?.toString()).to.equal('1')
    cache.flush('n')
    expect(flushed).to.deep.equal([])
    expect(cache.sizeBytes()).to.equal(0)
  })

  it('iterates a snapshot of the keys in byte order, both directions, skipping keys removed since', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 10_000 })
    listen(cache, 'n')
    for (const k of ['b', 'a', '\xff', 'ab', 'c', '\x00']) cache.put('n', s(k), dirty(k))
    expect(keysOf(cache.all('n'))).to.deep.equal(['\x00', 'a', 'ab', 'b', 'c', '\xff'])
    expect(keysOf(cache.reverseAll('n'))).to.deep.equal(['\xff', 'c', 'b', 'ab', 'a', '\x00'])
    expect(keysOf(cache.range('n', s('a'), s('b')))).to.deep.equal(['a', 'ab', 'b'])
    expect(keysOf(cache.range('n', s('a'), s('b'), false))).to.deep.equal(['a', 'ab'])
    expect(keysOf(cache.reverseRange('n', s('a'), s('b')))).to.deep.equal(['b', 'ab', 'a'])
    expect(keysOf(cache.range('n', undefined, s('a')))).to.deep.equal(['\x00', 'a'])
    expect(keysOf(cache.range('n', s('c'), undefined))).to.deep.equal(['c', '\xff'])
    expect(keysOf(cache.range('n', s('c'), s('a')))).to.deep.equal([])
    expect(keysOf(cache.prefixScan('n', s('a')))).to.deep.equal(['a', 'ab'])
    expect(keysOf(cache.prefixScan('n', s('\xff')))).to.deep.equal(['\xff'])
    const it = cache.all('n')
    expect(it.next()?.key.toString('latin1')).to.equal('\x00')
    cache.delete('n', s('a'))
    cache.put('n', s('aa'), dirty('new'))
    expect(keysOf(it)).to.deep.equal(['ab', 'b', 'c', '\xff'])
    expect(keysOf(cache.all('n'))).to.deep.equal(['\x00', 'aa', 'ab', 'b', 'c', '\xff'])
    expect(keysOf(cache.all('other'))).to.deep.equal([])
  })

  it('keeps its sorted keys right across many writes, deletes and evictions', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 60 * nodeSize('k000', '1', '') })
    listen(cache, 'n')
    const live = new Set<string>()
    let seed = 7
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    for (let i = 0; i < 3000; i++) {
      const key = `k${String(rand(200)).padStart(3, '0')}`
      const op = rand(10)
      if (op < 6) cache.put('n', s(key), LRUCacheEntry.clean(s('1')))
      else if (op < 8) cache.delete('n', s(key))
      else if (op === 8) cache.get('n', s(key))
      if (rand(50) === 0) {
        live.clear()
        for (const k of cache.namedCache('n')!.lruKeys) live.add(k)
        expect(keysOf(cache.all('n'))).to.deep.equal([...live].sort())
      }
    }
  })

  it('resize() to a smaller budget evicts until the total fits; close() drops a cache and its bytes', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 10_000 })
    for (const n of ['x', 'y']) for (const k of ['a', 'b', 'c']) cache.put(n, s(k), LRUCacheEntry.clean(s('1')))
    cache.resize(2 * nodeSize('a', '1', ''))
    expect(cache.sizeBytes()).to.be.at.most(2 * nodeSize('a', '1', ''))
    expect(cache.maxCacheSizeBytes).to.equal(2 * nodeSize('a', '1', ''))
    const before = cache.sizeBytes()
    const xBytes = cache.namedCache('x')!.sizeInBytes
    cache.close('x')
    expect(cache.namedCache('x')).to.equal(undefined)
    expect(cache.sizeBytes()).to.equal(before - xBytes)
  })
})

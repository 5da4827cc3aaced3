/**
 * The store bench workloads, each a timed loop over pre-generated keys that any Target runs
 * identically: put, get (hit and miss), range scan, putAll, and the mixed get + put per record
 * workload of a counting processor, with a commit (flush) every `commitEvery` writes or records.
 */
import { KeyValue } from '@kstreams/core'
import type { Target } from './targets.js'

export interface Data {
  /** Distinct 16-byte keys, in random order. */
  readonly keys: Buffer[]
  /** Absent keys of the same shape. */
  readonly misses: Buffer[]
  /** `keys` sorted by bytes, for range bounds. */
  readonly sortedKeys: Buffer[]
  readonly value: Buffer
  /** The mixed workload's key space and record sequence (indices into it). */
  readonly counters: Buffer[]
  readonly records: Uint32Array
}

export interface Settings {
  readonly commitEvery: number
  readonly scans: number
  readonly scanLength: number
  readonly putAllBatch: number
}

/** One timed measurement: operations done in seconds. */
export interface Measurement {
  readonly ops: number
  readonly seconds: number
}

/** xorshift32: the same data on every run. */
export function xorshift(seed: number): () => number {
  let x = seed | 0
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 4294967296
  }
}

function randomKey(random: () => number, first: number): Buffer {
  const key = Buffer.allocUnsafe(16)
  key[0] = first
  for (let i = 1; i < 16; i++) key[i] = Math.floor(random() * 256)
  return key
}

export function makeData(n: number, counterKeys: number, records: number): Data {
  const random = xorshift(0x9e3779b9)
  // Present keys start with 0x00..0x7f, misses with 0x80..0xff: never equal.
  const keys = Array.from({ length: n }, () => randomKey(random, Math.floor(random() * 128)))
  const misses = Array.from({ length: n }, () => randomKey(random, 128 + Math.floor(random() * 128)))
  const counters = Array.from({ length: counterKeys }, (_, i) => Buffer.from(`counter-${String(i).padStart(8, '0')}`))
  const sequence = new Uint32Array(records)
  for (let i = 0; i < records; i++) sequence[i] = Math.floor(random() * counterKeys)
  return { keys, misses, sortedKeys: [...keys].sort(Buffer.compare), value: Buffer.alloc(100, 0x61), counters, records: sequence }
}

function timed(ops: number, run: () => void): Measurement {
  const start = process.hrtime.bigint()
  run()
  return { ops, seconds: Number(process.hrtime.bigint() - start) / 1e9 }
}

export function put(target: Target, data: Data, settings: Settings): Measurement {
  const { keys, value } = data
  return timed(keys.length, () => {
    for (let i = 0; i < keys.length; i++) {
      target.put(keys[i]!, value)
      if ((i + 1) % settings.commitEvery === 0) target.commit()
    }
    target.commit()
  })
}

/** Needs the keys put (and committed) first. */
export function getHit(target: Target, data: Data): Measurement {
  const { keys } = data
  let found = 0
  const m = timed(keys.length, () => {
    for (const key of keys) if (target.get(key) != null) found++
  })
  if (found !== keys.length) throw new Error(`${target.label}: get found ${found} of ${keys.length} keys`)
  return m
}

export function getMiss(target: Target, data: Data): Measurement {
  const { misses } = data
  let found = 0
  const m = timed(misses.length, () => {
    for (const key of misses) if (target.get(key) != null) found++
  })
  if (found !== 0) throw new Error(`${target.label}: get found ${found} absent keys`)
  return m
}

/** `scans` range reads of `scanLength` consecutive keys; counts entries read. */
export function range(target: Target, data: Data, settings: Settings): Measurement {
  const { sortedKeys } = data
  const random = xorshift(42)
  let entries = 0
  const m = timed(0, () => {
    for (let i = 0; i < settings.scans; i++) {
      const start = Math.floor(random() * (sortedKeys.length - settings.scanLength))
      entries += target.scan(sortedKeys[start]!, sortedKeys[start + settings.scanLength - 1]!)
    }
  })
  if (entries !== settings.scans * settings.scanLength) throw new Error(`${target.label}: range read ${entries} entries`)
  return { ops: entries, seconds: m.seconds }
}

export function putAll(target: Target, data: Data, settings: Settings): Measurement {
  const { keys, value } = data
  const batches: Array<Array<KeyValue<Buffer, Buffer>>> = []
  for (let i = 0; i < keys.length; i += settings.putAllBatch) {
    batches.push(keys.slice(i, i + settings.putAllBatch).map(key => new KeyValue(key, value)))
  }
  let written = 0
  return timed(keys.length, () => {
    for (const batch of batches) {
      target.putAll(batch)
      written += batch.length
      if (written % settings.commitEvery === 0) target.commit()
    }
    target.commit()
  })
}

/** Per record: read the key's counter and write it back incremented (8-byte big-endian). */
export function mixed(target: Target, data: Data, commitEvery: number): Measurement {
  const { counters, records } = data
  let checksum = 0
  const m = timed(records.length, () => {
    for (let i = 0; i < records.length; i++) {
      const key = counters[records[i]!]!
      const old = target.get(key)
      const next = (old == null ? 0 : old.readUInt32BE(4)) + 1
      const value = Buffer.allocUnsafe(8)
      value.writeUInt32BE(0, 0)
      value.writeUInt32BE(next, 4)
      target.put(key, value)
      checksum += next
      if ((i + 1) % commitEvery === 0) target.commit()
    }
    target.commit()
  })
  if (checksum <= 0) throw new Error(`${target.label}: mixed workload did nothing`)
  return m
}

/**
 * How a stream-table join is configured (Kafka Streams' `Joined`): the key serde, the stream's
 * value serde and the table's value serde (used when the stream must be repartitioned first), and
 * the join processor's name (also the repartition topic's prefix), and the grace period of a join
 * with a versioned table (KIP-923). Immutable: `with*` returns a copy.
 */
import { StreamsError } from '@kstreams/core'
import type { Serde } from '@kstreams/core'
import { validateName } from './named.js'

/** How a stream-table join is configured (Kafka Streams' Joined): serdes and the join processor's name. */
export class Joined<K, V, VO> {
  private constructor(
    /** The key serde; undefined: the upstream or default serde. */
    readonly keySerde: Serde<K> | undefined,
    /** The stream's value serde; undefined: the upstream or default serde. */
    readonly valueSerde: Serde<V> | undefined,
    /** The table's value serde; undefined: the upstream or default serde. */
    readonly otherValueSerde: Serde<VO> | undefined,
    /** The join processor's name (also the repartition topic's prefix); undefined: generated. */
    readonly name: string | undefined,
    /**
     * How long (ms) stream records wait, in a buffer, before they join a versioned table (KIP-923);
     * undefined: they join at once.
     */
    readonly gracePeriodMs: number | undefined = undefined
  ) {}

  /** The serdes, and optionally a name and a grace period (ms; see withGracePeriod). */
  static with<K, V, VO>(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    otherValueSerde: Serde<VO> | undefined,
    name?: string,
    gracePeriodMs?: number
  ): Joined<K, V, VO> {
    return new Joined(
      keySerde,
      valueSerde,
      otherValueSerde,
      name === undefined ? undefined : validateName(name),
      gracePeriodMs === undefined ? undefined : checkGracePeriod(gracePeriodMs)
    )
  }

  /** Only a name; serdes come from upstream or the config defaults. */
  static as<K = unknown, V = unknown, VO = unknown>(name: string): Joined<K, V, VO> {
    return new Joined<K, V, VO>(undefined, undefined, undefined, validateName(name))
  }

  /** A copy with another name. */
  withName(name: string): Joined<K, V, VO> {
    return new Joined(this.keySerde, this.valueSerde, this.otherValueSerde, validateName(name), this.gracePeriodMs)
  }

  /** A copy with another key serde. */
  withKeySerde(keySerde: Serde<K>): Joined<K, V, VO> {
    return new Joined(keySerde, this.valueSerde, this.otherValueSerde, this.name, this.gracePeriodMs)
  }

  /** A copy with another stream value serde. */
  withValueSerde(valueSerde: Serde<V>): Joined<K, V, VO> {
    return new Joined(this.keySerde, valueSerde, this.otherValueSerde, this.name, this.gracePeriodMs)
  }

  /** A copy with another table value serde. */
  withOtherValueSerde(otherValueSerde: Serde<VO>): Joined<K, V, VO> {
    return new Joined(this.keySerde, this.valueSerde, otherValueSerde, this.name, this.gracePeriodMs)
  }

  /**
   * A copy with a grace period (ms, KIP-923): stream records wait in a time-ordered buffer (a
   * change-logged store named `<join name>-Buffer`) until stream time has passed their timestamp
   * by the grace period, then join in timestamp order, each as of its own timestamp; a record
   * already older than that joins at once. The table must be versioned (ILLEGAL_ARGUMENT when the
   * join is built otherwise) with a history retention of at least the grace period. A negative
   * grace period is ILLEGAL_ARGUMENT.
   */
  withGracePeriod(gracePeriodMs: number): Joined<K, V, VO> {
    return new Joined(this.keySerde, this.valueSerde, this.otherValueSerde, this.name, checkGracePeriod(gracePeriodMs))
  }
}

function checkGracePeriod(ms: number): number {
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Joined: the grace period must be a non-negative integer number of ms, got ${String(ms)}`)
  }
  return ms
}

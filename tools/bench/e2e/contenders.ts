/**
 * What the e2e bench runs, in the order of a round, and the ratios it reports. Every kstreams
 * contender has the raw loop of its own client on the same input as its baseline; the count on
 * platformatic runs three times: at the bench's commit interval (30 s), and at the EOS commit
 * interval (100 ms) under at_least_once and under exactly_once_v2, so that EOS / ALOS isolates
 * the cost of the transactions from that of committing often.
 */
import type { ProcessingGuarantee } from '@kstreams/core'
import type { InputKind } from './input-data.js'
import type { ClientKind, PipelineKind } from './pipelines.js'

export interface Contender {
  /** Used by --contenders and --profile. */
  readonly id: string
  readonly label: string
  readonly pipeline: PipelineKind
  readonly client: ClientKind
  readonly input: InputKind
  readonly processingGuarantee: ProcessingGuarantee
  /** 'eos': --eos-commit-interval-ms (100), else --commit-interval-ms (30000). */
  readonly commitInterval: 'default' | 'eos'
}

const contender = (
  id: string,
  label: string,
  pipeline: PipelineKind,
  client: ClientKind,
  input: InputKind,
  processingGuarantee: ProcessingGuarantee = 'at_least_once',
  commitInterval: 'default' | 'eos' = 'default'
): Contender => ({ id, label, pipeline, client, input, processingGuarantee, commitInterval })

/** Every contender, in round order; the labels of the last two name the EOS commit interval. */
export function allContenders(eosCommitIntervalMs: number): Contender[] {
  const eos = `commit ${eosCommitIntervalMs} ms`
  return [
    contender('baseline-bytes', 'baseline: kafkajs loop, 100-byte values', 'baseline', 'kafkajs', 'bytes'),
    contender('baseline-bytes-plt', 'baseline: platformatic loop, 100-byte values', 'baseline', 'platformatic', 'bytes'),
    contender('a', '(a) kstreams source -> sink, kafkajs', 'passthrough', 'kafkajs', 'bytes'),
    contender('a-plt', '(a) kstreams source -> sink, platformatic', 'passthrough', 'platformatic', 'bytes'),
    contender('baseline-words', 'baseline: kafkajs loop, word values', 'baseline', 'kafkajs', 'words'),
    contender('baseline-words-plt', 'baseline: platformatic loop, word values', 'baseline', 'platformatic', 'words'),
    contender('b', '(b) kstreams count, kafkajs', 'count', 'kafkajs', 'words'),
    contender('b-plt', '(b) kstreams count, platformatic', 'count', 'platformatic', 'words'),
    contender('b-plt-alos', `(b) kstreams count, platformatic, ALOS, ${eos}`, 'count', 'platformatic', 'words', 'at_least_once', 'eos'),
    contender('b-plt-eos', `(b) kstreams count, platformatic, EOS v2, ${eos}`, 'count', 'platformatic', 'words', 'exactly_once_v2', 'eos')
  ]
}

export const CONTENDER_IDS: readonly string[] = allContenders(0).map(c => c.id)

export interface RatioSpec {
  readonly label: string
  readonly numerator: string
  readonly denominator: string
}

/** numerator / denominator, by contender id; a ratio is shown when both ran. */
export const RATIOS: readonly RatioSpec[] = [
  { label: '(a) kafkajs / kafkajs loop (100-byte values)', numerator: 'a', denominator: 'baseline-bytes' },
  { label: '(a) platformatic / platformatic loop', numerator: 'a-plt', denominator: 'baseline-bytes-plt' },
  { label: '(b) kafkajs / kafkajs loop (word values)', numerator: 'b', denominator: 'baseline-words' },
  { label: '(b) platformatic / platformatic loop', numerator: 'b-plt', denominator: 'baseline-words-plt' },
  { label: '(b) platformatic, ALOS short commits / its loop', numerator: 'b-plt-alos', denominator: 'baseline-words-plt' },
  { label: '(b) platformatic, EOS v2 / its loop', numerator: 'b-plt-eos', denominator: 'baseline-words-plt' },
  { label: 'platformatic loop / kafkajs loop (100-byte)', numerator: 'baseline-bytes-plt', denominator: 'baseline-bytes' },
  { label: 'platformatic loop / kafkajs loop (words)', numerator: 'baseline-words-plt', denominator: 'baseline-words' },
  { label: '(a) on platformatic / (a) on kafkajs', numerator: 'a-plt', denominator: 'a' },
  { label: '(b) on platformatic / (b) on kafkajs', numerator: 'b-plt', denominator: 'b' },
  { label: '(b) ALOS short commits / ALOS default commits', numerator: 'b-plt-alos', denominator: 'b-plt' },
  { label: '(b) EOS v2 / ALOS (same commit interval)', numerator: 'b-plt-eos', denominator: 'b-plt-alos' }
]

/** Throws unless every id names a contender. */
export function checkContenderIds(option: string, ids: readonly string[]): void {
  const unknown = ids.filter(id => !CONTENDER_IDS.includes(id))
  if (unknown.length > 0) throw new Error(`${option}: unknown contender(s) ${unknown.join(', ')}; expected ${CONTENDER_IDS.join(', ')}`)
}

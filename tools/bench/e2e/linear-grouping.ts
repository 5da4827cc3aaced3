/**
 * Diagnostic for the e2e bench (--linear-grouping): replaces kafkajs 2.2.4's
 * src/producer/groupMessagesPerPartition.js, which copies the partition's array for every
 * message (`[...current, message]`, O(n^2) in the messages of one topic per send), with a linear
 * version, before kafkajs is loaded. Shows what patching kafkajs would gain; the default bench
 * measures kafkajs as installed.
 */
import Module, { createRequire } from 'node:module'

interface GroupArgs<M> {
  readonly topic: string
  readonly partitionMetadata: readonly unknown[]
  readonly messages: readonly M[]
  readonly partitioner: (args: { topic: string; partitionMetadata: readonly unknown[]; message: M }) => number
}

/** Same result as kafkajs' version: { [partition]: messages in order }, {} without metadata. */
export function groupMessagesPerPartition<M>({ topic, partitionMetadata, messages, partitioner }: GroupArgs<M>): Record<number, M[]> {
  const result: Record<number, M[]> = {}
  if (partitionMetadata.length === 0) return result
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message })
    const list = result[partition]
    if (list === undefined) result[partition] = [message]
    else list.push(message)
  }
  return result
}

/** Puts the linear version into the CommonJS module cache; call before anything imports kafkajs. */
export function installLinearGrouping(): void {
  const require = createRequire(import.meta.url)
  const path = require.resolve('kafkajs/src/producer/groupMessagesPerPartition.js')
  const ModuleClass = Module as unknown as new (id: string) => { filename: string; loaded: boolean; exports: unknown }
  const module = new ModuleClass(path)
  module.filename = path
  module.loaded = true
  module.exports = groupMessagesPerPartition
  require.cache[path] = module as unknown as NodeJS.Module
}

/**
 * Atomics.waitAsync (ES2024; in Node since 16), which the ES2022 lib does not declare: resolves
 * once `array[index]` is notified while it holds `value` (at once if it no longer does), or after
 * `timeoutMs`. A pending waitAsync does not keep Node's event loop alive, so a timer does while
 * it waits (a worker with nothing else to do would otherwise exit). @internal
 */
interface AtomicsWaitAsync {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
    timeoutMs: number
  ): { async: false; value: string } | { async: true; value: Promise<string> }
}

export async function waitAsync(array: Int32Array, index: number, value: number, timeoutMs: number): Promise<void> {
  const waited = (Atomics as unknown as AtomicsWaitAsync).waitAsync(array, index, value, Math.max(0, timeoutMs))
  if (!waited.async) return
  const keepAlive = setTimeout(() => undefined, Math.max(0, timeoutMs))
  try {
    await waited.value
  } finally {
    clearTimeout(keepAlive)
  }
}

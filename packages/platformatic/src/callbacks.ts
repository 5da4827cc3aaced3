/**
 * Calls a platformatic method in its callback form and returns a promise. The adapter never
 * uses platformatic's own promise forms: those are built on `Promise.withResolvers` (Node 22+),
 * the callback forms are not.
 */
export async function viaCallback<T = void>(
  call: (callback: (error: Error | null | undefined, result?: T) => void) => unknown
): Promise<T> {
  return await new Promise<T>((resolve, reject) => {
    call((error, result) => {
      if (error !== null && error !== undefined) reject(error)
      else resolve(result as T)
    })
  })
}

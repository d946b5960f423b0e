/**
 * A module loaded with its first use and the same promise answered after: a tool's call code
 * is loaded with the first call (start-up loads only schemas), and import() of a module
 * already loaded still goes through the loader, about 14 us a call here. A load that fails
 * (a file briefly unreadable) is not kept: the next call loads again.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    });
    return loaded;
  };
}

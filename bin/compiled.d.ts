/** Where compiled modules are kept: beside the packages they import. */
export const CACHE_DIR: string;
/** The URL of `entry` compiled into one module in `cacheDir`, or null when it cannot be compiled or written. */
export function compiledEntry(entry: string, name: string, cacheDir?: string): Promise<string | null>;

// docs "Hierarchies", for the Node tests: what an unknown code becomes, from
// the expectations (tests/support.py: expectations()), never from the module.

/**
 * The class name an unknown code falls back to: that of the domain whose match
 * claims it (the longest prefix it starts with, the narrowest range it is in),
 * else the fallback's.
 */
export function unknownClassName(ex, code) {
  let best;
  let size = -1;
  for (const m of ex.matches) {
    if (typeof code === "string" && m.prefix !== undefined && code.startsWith(m.prefix) && m.prefix.length > size) {
      [best, size] = [m.className, m.prefix.length];
    } else if (typeof code === "number" && m.low !== undefined && m.low <= code && code <= m.high && (best === undefined || m.high - m.low < size)) {
      [best, size] = [m.className, m.high - m.low];
    }
  }
  return best ?? ex.fallback.className;
}

/**
 * The code whose code and retryability an error of the class carries: the
 * class's own code, or, for a domain's own class, the fallback.
 */
export function carried(ex, className) {
  return ex.codes.find((c) => c.className === className) ?? ex.codes.find((c) => c.code === ex.fallback.code);
}

// The part of `listNamespaces` that is the same for every driver: given the namespaces that hold
// live items, apply prefix, suffix, depth and paging in the contract's order.

import type { ListNamespacesOptions } from "../types/store.js";
import { compareCodePoints, encodeNamespace, namespaceEndsWith, namespaceStartsWith } from "./namespace.js";

export function selectNamespaces(namespaces: Iterable<string[]>, options: ListNamespacesOptions = {}): string[][] {
  const { prefix = [], suffix = [], maxDepth, limit = 100, offset = 0 } = options;
  const chosen = new Map<string, string[]>();
  for (const namespace of namespaces) {
    if (!namespaceStartsWith(namespace, prefix) || !namespaceEndsWith(namespace, suffix)) {
      continue;
    }
    const cut = maxDepth === undefined ? namespace : namespace.slice(0, maxDepth);
    chosen.set(encodeNamespace(cut), cut);
  }
  return [...chosen.entries()]
    .sort(([left], [right]) => compareCodePoints(left, right))
    .slice(offset, offset + limit)
    .map(([, namespace]) => namespace);
}

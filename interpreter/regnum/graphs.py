"""Cycles in a directed graph, found in linear time and without recursion.

Rulesets are untrusted and may chain thousands of definitions or rules: the checker (a def
that calls itself, an action that asks `can()` about itself) and the compiler (a rule that
may call itself runs on the VM, where its depth is counted) both need the names that lie on
a cycle, and neither may recurse once per name.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable


def loops(edges: dict, targets: Callable[[object], Hashable] = lambda t: t) -> dict:
    """node -> the frozenset of its strongly connected component, for every node that lies on
    a cycle (a component of several nodes, or a node with an edge to itself). `edges` maps a
    node to what it points at; `targets` reads the node out of each item (Tarjan's algorithm)."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: dict = {}
    counter = 0

    def successors(node) -> Iterable:
        return (targets(item) for item in edges.get(node, ()))

    for root in edges:
        if root in index:
            continue
        work = [(root, successors(root))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, _DONE)
            if child is not _DONE:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, successors(child)))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1 or node in successors(node):
                    group = frozenset(members)
                    for member in members:
                        out[member] = group
    return out


_DONE = object()

#pragma once

#include <string>
#include <vector>

namespace cx {

/// A rooted tree over cell types, e.g. the star `H1-hESC>GM12878,K562` or the two-level
/// `ROOT>A,B;A>C`. Nodes are stored in breadth-first order from the root (node 0), so every
/// parent precedes its children.
struct TreeSpec {
    std::vector<std::string> names; ///< node names, breadth-first (names[0] = root)
    std::vector<int> parent;        ///< parent[v] (−1 for the root)

    int numNodes() const { return static_cast<int>(names.size()); }
    int root() const { return 0; }
    /// Index of `name`, or −1.
    int find(const std::string& name) const;
    /// Children of v in specification order.
    std::vector<int> children(int v) const;
    /// Nodes from the root to v (root first, v last).
    std::vector<int> pathFromRoot(int v) const;
    /// The specification text (`ROOT>C1,C2;C1>G`), parseable by parseTreeSpec.
    std::string toString() const;
};

/// Parses `PARENT>CHILD1,CHILD2;PARENT2>CHILD3…` (spaces around names are ignored; a lone
/// `NAME` is a one-node tree).
/// \throws InputError naming the problem for: an empty specification or name, a clause without
///   '>', a node with two parents, a cycle, several roots (a forest), a child listed twice.
TreeSpec parseTreeSpec(const std::string& text);

/// The star tree ROOT > every other name (in the given order).
TreeSpec starTree(const std::string& root, const std::vector<std::string>& leaves);

} // namespace cx

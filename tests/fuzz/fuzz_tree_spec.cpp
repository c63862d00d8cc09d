// libFuzzer target: cell-type tree specifications (core/tree/tree_spec.h): parse, print,
// re-parse, and check the tree's invariants.
#include "core/tree/tree_spec.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    cx::fuzz::expectOnlyInputErrors([&] {
        const cx::TreeSpec tree = cx::parseTreeSpec(text);
        const int n = tree.numNodes();
        if (n < 1 || tree.parent.size() != tree.names.size() || tree.parent[0] != -1) {
            __builtin_trap();
        }
        // Breadth-first order: every parent precedes its children; names are unique.
        for (int v = 1; v < n; ++v) {
            if (tree.parent[static_cast<size_t>(v)] < 0 ||
                tree.parent[static_cast<size_t>(v)] >= v ||
                tree.find(tree.names[static_cast<size_t>(v)]) != v) {
                __builtin_trap();
            }
            const auto path = tree.pathFromRoot(v);
            if (path.empty() || path.front() != 0 || path.back() != v) {
                __builtin_trap();
            }
        }
        // The canonical text parses to the same tree.
        const cx::TreeSpec again = cx::parseTreeSpec(tree.toString());
        if (again.names != tree.names || again.parent != tree.parent) {
            __builtin_trap();
        }
    });
    return 0;
}

#include "core/tree/tree_spec.h"

#include "core/common/error.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace cx {

namespace {

std::string trimmed(const std::string& s) {
    const auto begin = s.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos) {
        return {};
    }
    const auto end = s.find_last_not_of(" \t\r\n");
    return s.substr(begin, end - begin + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(s);
    while (std::getline(in, item, sep)) {
        out.push_back(item);
    }
    if (!s.empty() && s.back() == sep) {
        out.emplace_back();
    }
    return out;
}

} // namespace

int TreeSpec::find(const std::string& name) const {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

std::vector<int> TreeSpec::children(int v) const {
    std::vector<int> out;
    for (int u = 0; u < numNodes(); ++u) {
        if (parent[static_cast<size_t>(u)] == v) {
            out.push_back(u);
        }
    }
    return out;
}

std::vector<int> TreeSpec::pathFromRoot(int v) const {
    std::vector<int> path;
    for (int u = v; u >= 0; u = parent[static_cast<size_t>(u)]) {
        path.push_back(u);
    }
    std::reverse(path.begin(), path.end());
    return path;
}

std::string TreeSpec::toString() const {
    std::string out;
    for (int v = 0; v < numNodes(); ++v) {
        const std::vector<int> kids = children(v);
        if (kids.empty()) {
            continue;
        }
        if (!out.empty()) {
            out += ';';
        }
        out += names[static_cast<size_t>(v)] + '>';
        for (size_t i = 0; i < kids.size(); ++i) {
            out += (i ? "," : "") + names[static_cast<size_t>(kids[i])];
        }
    }
    return out.empty() && !names.empty() ? names[0] : out;
}

TreeSpec parseTreeSpec(const std::string& text) {
    const std::string spec = trimmed(text);
    if (spec.empty()) {
        throw InputError("tree: the specification is empty (expected ROOT>CHILD1,CHILD2;…)");
    }
    std::vector<std::string> order; // names in order of appearance
    std::map<std::string, std::string> parentOf;
    std::map<std::string, std::vector<std::string>> childrenOf;
    auto note = [&](const std::string& name) {
        if (std::find(order.begin(), order.end(), name) == order.end()) {
            order.push_back(name);
        }
    };
    const std::vector<std::string> clauses = split(spec, ';');
    for (const std::string& raw : clauses) {
        const std::string clause = trimmed(raw);
        if (clause.empty()) {
            continue;
        }
        const auto gt = clause.find('>');
        if (gt == std::string::npos) {
            if (clauses.size() == 1) {
                note(clause);
                continue;
            }
            throw InputError("tree: clause '" + clause + "' has no '>' (expected PARENT>CHILD,…)");
        }
        const std::string parent = trimmed(clause.substr(0, gt));
        if (parent.empty()) {
            throw InputError("tree: clause '" + clause + "' has no parent name before '>'");
        }
        note(parent);
        for (const std::string& rawChild : split(clause.substr(gt + 1), ',')) {
            const std::string child = trimmed(rawChild);
            if (child.empty() || child.find('>') != std::string::npos) {
                throw InputError("tree: clause '" + clause + "' has an empty or malformed child");
            }
            if (child == parent) {
                throw InputError("tree: '" + child + "' is its own parent");
            }
            const auto it = parentOf.find(child);
            if (it != parentOf.end()) {
                throw InputError("tree: '" + child + "' has two parents ('" + it->second +
                                 "' and '" + parent + "')");
            }
            parentOf[child] = parent;
            childrenOf[parent].push_back(child);
            note(child);
        }
    }
    std::vector<std::string> roots;
    for (const std::string& name : order) {
        if (!parentOf.count(name)) {
            roots.push_back(name);
        }
    }
    if (roots.empty()) {
        throw InputError("tree: every node has a parent, so the specification has a cycle");
    }
    if (roots.size() > 1) {
        throw InputError("tree: several roots ('" + roots[0] + "' and '" + roots[1] +
                         "'): the nodes must form one tree");
    }
    TreeSpec tree;
    tree.names.push_back(roots[0]);
    tree.parent.push_back(-1);
    for (size_t i = 0; i < tree.names.size(); ++i) {
        const auto it = childrenOf.find(tree.names[i]);
        if (it == childrenOf.end()) {
            continue;
        }
        for (const std::string& child : it->second) {
            tree.names.push_back(child);
            tree.parent.push_back(static_cast<int>(i));
        }
    }
    if (tree.names.size() != order.size()) {
        for (const std::string& name : order) {
            if (tree.find(name) < 0) {
                throw InputError("tree: '" + name +
                                 "' is not reachable from the root (a cycle through it)");
            }
        }
    }
    return tree;
}

TreeSpec starTree(const std::string& root, const std::vector<std::string>& leaves) {
    TreeSpec tree;
    tree.names.push_back(root);
    tree.parent.push_back(-1);
    for (const std::string& leaf : leaves) {
        if (leaf != root) {
            tree.names.push_back(leaf);
            tree.parent.push_back(0);
        }
    }
    return tree;
}

} // namespace cx

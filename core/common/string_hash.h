#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace cx {

/// Hash for std::string keys that also accepts std::string_view (heterogeneous lookup), so
/// that looking up a token does not allocate. Use with std::equal_to<>.
struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

} // namespace cx

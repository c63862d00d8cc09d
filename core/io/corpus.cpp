#include "core/io/corpus.h"

#include <algorithm>
#include <cctype>

namespace cx {

int Corpus::labelFieldIndex(const std::string& name) const {
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return s;
    };
    const std::string wanted = lower(name);
    for (size_t i = 0; i < labels.size(); ++i) {
        if (lower(labels[i].name) == wanted) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

} // namespace cx

#include "core/common/memory.h"

#include <fstream>
#include <sstream>
#include <string>

namespace cx {

std::int64_t peakResidentBytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) {
            std::istringstream fields(line.substr(6));
            std::int64_t kb = 0;
            fields >> kb;
            return kb * 1024;
        }
    }
    return 0;
}

} // namespace cx

#pragma once
// Items in running text: "a", "a and b", "a, b and c".
#include <string>
#include <vector>

namespace poet {

inline std::string joinAsList(const std::vector<std::string>& items)
{
    std::string out;
    for (std::size_t k = 0; k < items.size(); ++k) {
        if (k) out += k + 1 == items.size() ? " and " : ", ";
        out += items[k];
    }
    return out;
}

}  // namespace poet

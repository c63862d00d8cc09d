#pragma once

#include <cstdint>
#include <vector>

namespace cx {

/// Counts of 64-bit keys (open addressing, linear probing, power-of-two capacity that doubles
/// at half load). Much faster than std::unordered_map for the millions of inserts of a moment
/// pass; iteration visits the occupied slots in slot order (deterministic for given inserts).
/// The key ~0 is reserved.
class CountTable {
public:
    explicit CountTable(std::size_t expected = 1024) { rehash(capacityFor(expected)); }

    void add(std::uint64_t key, std::int64_t count = 1) {
        if (2 * (m_size + 1) > m_keys.size()) {
            rehash(m_keys.size() * 2);
        }
        std::size_t slot = index(key);
        while (m_keys[slot] != kEmpty && m_keys[slot] != key) {
            slot = (slot + 1) & m_mask;
        }
        if (m_keys[slot] == kEmpty) {
            m_keys[slot] = key;
            ++m_size;
        }
        m_counts[slot] += count;
    }
    std::size_t size() const { return m_size; }
    /// Calls f(key, count) for every key.
    template <class F> void forEach(F&& f) const {
        for (std::size_t i = 0; i < m_keys.size(); ++i) {
            if (m_keys[i] != kEmpty) {
                f(m_keys[i], m_counts[i]);
            }
        }
    }

private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    static std::size_t capacityFor(std::size_t expected) {
        std::size_t c = 64;
        while (c < 2 * expected) {
            c *= 2;
        }
        return c;
    }
    std::size_t index(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> m_shift) & m_mask;
    }
    void rehash(std::size_t capacity) {
        std::vector<std::uint64_t> keys(capacity, kEmpty);
        std::vector<std::int64_t> counts(capacity, 0);
        std::swap(keys, m_keys);
        std::swap(counts, m_counts);
        m_mask = capacity - 1;
        m_shift = 64;
        for (std::size_t c = capacity; c > 1; c >>= 1) {
            --m_shift;
        }
        m_size = 0;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (keys[i] != kEmpty) {
                add(keys[i], counts[i]);
            }
        }
    }
    std::vector<std::uint64_t> m_keys;
    std::vector<std::int64_t> m_counts;
    std::size_t m_mask = 0;
    std::size_t m_size = 0;
    int m_shift = 58;
};

} // namespace cx

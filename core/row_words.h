#pragma once
// BoolMatrix rows (bytes, each 0 or 1) read eight entries at a time. The
// replay walks five matrices' rows for every schedule it checks, and the
// schedule searches (relieveToFit, one replay per step) check thousands:
// entry by entry that was a tenth of a bert solve's time.
#include <bit>
#include <cstdint>
#include <cstring>

namespace poet {

static_assert(std::endian::native == std::endian::little, "entry k of a word is its byte k");

// Entries p[0..7] as one word, entry k in byte k. A row may be read so past
// its end (BoolMatrix keeps 7 bytes after its last row).
inline std::uint64_t eightEntries(const std::uint8_t* p)
{
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
}

// A word with every entry 1 where `on`, else 0 (to mask a whole term).
inline std::uint64_t allEntries(bool on) { return on ? 0x0101010101010101ull : 0; }

// Calls f(i), in increasing i, for every i in [from, to) whose entry is 1 in
// `word(i)`: a word of entries i..i+7 each 0 or 1, made of whole rows'
// words with bitwise and, or and not (each not and-ed with a 0/1 word).
template <class Word, class F>
void forEachMarked(int from, int to, Word word, F f)
{
    for (int i = from; i < to; i += 8) {
        std::uint64_t w = word(i);
        if (to - i < 8) w &= (std::uint64_t{1} << (8 * (to - i))) - 1;  // entries past `to` are not ours
        for (; w; w &= w - 1) f(i + std::countr_zero(w) / 8);
    }
}

// Whether any entry in [from, to) is 1 in `word` (as forEachMarked's).
template <class Word>
bool anyMarked(int from, int to, Word word)
{
    bool any = false;
    forEachMarked(from, to, word, [&](int) { any = true; });
    return any;
}

}  // namespace poet

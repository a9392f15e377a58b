#pragma once
// A schedule: which node runs, what stays in RAM, what is on flash, what is
// paged in and out at each stage. Stage t = 0..T-1, node i = 0..T-1.
#include <cstdint>
#include <vector>

namespace poet {

class BoolMatrix {
public:
    BoolMatrix() = default;
    // Seven zero bytes follow the last row, so that any row may be read
    // eight entries at a time (row_words.h).
    explicit BoolMatrix(int n) : n_(n), v_(static_cast<std::size_t>(n) * n + 7, 0) {}
    int size() const { return n_; }
    bool operator()(int t, int i) const { return v_[static_cast<std::size_t>(t) * n_ + i] != 0; }
    void set(int t, int i, bool value = true) { v_[static_cast<std::size_t>(t) * n_ + i] = value ? 1 : 0; }
    // Row t's n entries, each 0 or 1 (for loops over a whole stage).
    const std::uint8_t* row(int t) const { return v_.data() + static_cast<std::size_t>(t) * n_; }
    int count() const;
    bool operator==(const BoolMatrix&) const = default;

private:
    int n_ = 0;
    std::vector<std::uint8_t> v_;
};

struct Schedule {
    Schedule() = default;
    explicit Schedule(int n) : R(n), S_RAM(n), S_SD(n), M_in(n), M_out(n) {}
    int size() const { return R.size(); }

    BoolMatrix R;      // node i computed during stage t
    BoolMatrix S_RAM;  // i's output in RAM at the start of stage t
    BoolMatrix S_SD;   // i's output on secondary storage at the start of stage t
    BoolMatrix M_in;   // i paged in during stage t (usable from t+1)
    BoolMatrix M_out;  // i paged out during stage t

    bool operator==(const Schedule&) const = default;
};

// The plain pass: every node computed once at its own stage, every output kept
// in RAM while a later node still reads it, no paging.
class Graph;
Schedule plainSchedule(const Graph& g);

}  // namespace poet

// The roundings of a RAM row (knapsack_rounding.h): every binary point that
// covers the excess satisfies each of them (checked on every point of
// random rows), and they say what a hand count says on rows of one size.
#include <QtTest>

#include <random>

#include "knapsack_rounding.h"

using namespace poet;

class TestKnapsackRounding : public QObject {
    Q_OBJECT
private slots:
    // Three values of 3 bytes, 4 to cover: any one covers 3, so two must go.
    void equalSizesNeedWholeValues()
    {
        const auto cuts = knapsackRoundings({3, 3, 3}, 4);
        QCOMPARE(static_cast<int>(cuts.size()), 2);
        QCOMPARE(cuts[0].coefficient, (std::vector<double>{3, 3, 3}));  // capped at the excess: unchanged
        QCOMPARE(cuts[0].rhs, 4.0);
        QCOMPARE(cuts[1].coefficient, (std::vector<double>{1, 1, 1}));
        QCOMPARE(cuts[1].rhs, 2.0);
        // Six to cover with values of 3: the row itself says two; no rounding adds to it.
        QCOMPARE(static_cast<int>(knapsackRoundings({3, 3, 3}, 6).size()), 1);
        QVERIFY(knapsackRoundings({3, 3, 3}, 0).empty());
        QVERIFY(knapsackRoundings({}, 5).empty());
    }

    // A value larger than the excess covers it alone: capped to the excess.
    void largeValuesAreCapped()
    {
        const auto cuts = knapsackRoundings({10, 2, 2}, 3);
        QCOMPARE(cuts[0].coefficient, (std::vector<double>{3, 2, 2}));
        QCOMPARE(cuts[0].rhs, 3.0);
        // Divisor 2: β = 1.5, f = 0.5; the 10 counts ⌊5⌋ = 5, each 2 counts 1; two needed.
        QCOMPARE(cuts[1].coefficient, (std::vector<double>{5, 1, 1}));
        QCOMPARE(cuts[1].rhs, 2.0);
    }

    // Random rows of up to ten values: every binary point that covers the
    // excess meets every rounding, and where no single value covers it a
    // rounding often cuts off the LP point that spreads the excess evenly
    // (the row itself never does: 46 of 178 rows here).
    void validOnEveryCoveringPoint()
    {
        std::mt19937 rng(7);
        int spread = 0, cut_off = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const int n = 1 + static_cast<int>(rng() % 10);
            std::vector<double> sizes(n);
            double all = 0;
            for (double& m : sizes) all += (m = 1 + static_cast<double>(rng() % 9));
            const double excess = 1 + static_cast<double>(rng() % static_cast<unsigned>(all));
            const auto cuts = knapsackRoundings(sizes, excess);
            for (unsigned mask = 0; mask < (1u << n); ++mask) {
                double covered = 0;
                for (int i = 0; i < n; ++i)
                    if (mask >> i & 1) covered += sizes[i];
                if (covered < excess) continue;
                for (const KnapsackRounding& cut : cuts) {
                    double lhs = 0;
                    for (int i = 0; i < n; ++i)
                        if (mask >> i & 1) lhs += cut.coefficient[i];
                    QVERIFY2(lhs >= cut.rhs - 1e-9, qPrintable(QStringLiteral("trial %1, mask %2").arg(trial).arg(mask)));
                }
            }
            bool one_covers = false;
            for (double m : sizes) one_covers |= m >= excess;
            if (one_covers) continue;
            ++spread;
            bool violated = false;  // out_i = excess / all on every value
            for (const KnapsackRounding& cut : cuts) {
                double lhs = 0;
                for (int i = 0; i < n; ++i) lhs += cut.coefficient[i] * excess / all;
                violated |= lhs < cut.rhs - 1e-9;
            }
            cut_off += violated;
        }
        QVERIFY2(spread >= 100 && cut_off >= 30, qPrintable(QStringLiteral("%1 of %2").arg(cut_off).arg(spread)));
    }
};

QTEST_APPLESS_MAIN(TestKnapsackRounding)
#include "tst_knapsack_rounding.moc"

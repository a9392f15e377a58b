// The RAM budget as typed on the command line and in the explorer: every
// accepted form against its byte count worked out by hand, and the texts
// that must be refused (none may throw).
#include <QtTest>

#include "ram_budget_text.h"

using namespace poet;

class TestRamBudgetText : public QObject {
    Q_OBJECT
private slots:
    void acceptedForms_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("peak");
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("bytes") << "3000000" << 0LL << 3000000LL;
        QTest::newRow("thousands") << "3,000,000" << 0LL << 3000000LL;
        QTest::newRow("B") << "737719 B" << 0LL << 737719LL;
        QTest::newRow("MB") << "3MB" << 0LL << 3000000LL;
        QTest::newRow("mb, spaces") << " 3 mb " << 0LL << 3000000LL;
        QTest::newRow("M") << "2.5M" << 0LL << 2500000LL;
        QTest::newRow("KB") << "737KB" << 0LL << 737000LL;
        QTest::newRow("kB") << "737kB" << 0LL << 737000LL;
        QTest::newRow("GB") << "1GB" << 0LL << 1000000000LL;
        QTest::newRow("KiB") << "1KiB" << 0LL << 1024LL;
        QTest::newRow("MiB") << "2.5MiB" << 0LL << 2621440LL;
        QTest::newRow("GiB") << "1 GiB" << 0LL << 1073741824LL;
        QTest::newRow("exponent") << "1.5e6" << 0LL << 1500000LL;
        QTest::newRow("percent") << "50%" << 2000LL << 1000LL;
        // bert's plain-pass peak: 10% is 38,377,881.6 B, 10.6% 40,680,554.5 B;
        // a budget rounds down (the explorer used to round these up).
        QTest::newRow("percent, rounds down") << "10%" << 383778816LL << 38377881LL;
        QTest::newRow("10.6%") << "10.6%" << 383778816LL << 40680554LL;
        QTest::newRow("fraction of a byte") << "1000.9" << 0LL << 1000LL;
        QTest::newRow("largest") << "9e18" << 0LL << 9000000000000000000LL;
    }
    void acceptedForms()
    {
        QFETCH(QString, text);
        QFETCH(qint64, peak);
        QFETCH(qint64, bytes);
        const auto parsed = parseRamBudget(text.toStdString(), peak);
        QVERIFY2(parsed.has_value(), qPrintable(text));
        QCOMPARE(static_cast<qint64>(*parsed), bytes);
    }

    void refused_data()
    {
        QTest::addColumn<QString>("text");
        for (const char* t : {"", " ", "lots", "5 parsecs", "-5", "0", "0.5", "0%", "1e400", "1e19", "nan", "inf",
                              "0x10", "2,5MB", "1,00", "5.", ".", "e5", "3MB5", "30 %%", "3 M B"})
            QTest::newRow(t) << QString::fromLatin1(t);
    }
    void refused()
    {
        QFETCH(QString, text);
        QVERIFY2(!parseRamBudget(text.toStdString(), 1000000), qPrintable(text));
    }

    void percentNeedsAPeak() { QVERIFY(!parseRamBudget("30%", 0)); }

    // "1.5" is 1 B, most likely a unit left out: the CLI warns of a count
    // of bytes with a fraction, and of nothing else.
    void fractionalByteCounts()
    {
        for (const char* t : {"1.5", "1000.9", "1.5 B", "2.25b"}) QVERIFY2(isFractionalByteCount(t), t);
        for (const char* t : {"737719", "1.5e6", "1.5MB", "2.5MiB", "10.6%", "3,000,000", "lots", ""})
            QVERIFY2(!isFractionalByteCount(t), t);
    }
};

QTEST_APPLESS_MAIN(TestRamBudgetText)
#include "tst_ram_budget_text.moc"

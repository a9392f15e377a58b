// Numbers keep their decimal point in a comma-decimal locale (de_DE): the
// sweep CSV, the explorer's figures, its typed RAM budgets, and, once the
// explorer's start-up has run, Qt's spin boxes and the C library. The locale
// is built for this test with localedef (Debian's `locales`, installed by
// scripts/setup), since neither CI nor this machine has one installed; each
// test starts in it, so each would see a comma where the code depends on it.
#include <QDoubleSpinBox>
#include <QLocale>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <clocale>
#include <cstdio>
#include <string>

#include "decimal_point.h"
#include "ram_budget_text.h"
#include "sweep.h"
#include "units.h"

using namespace poet;

class TstDecimalPoint : public QObject {
    Q_OBJECT
    QTemporaryDir locales_;

    static std::string printfTwoAndAHalf() {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%.1f", 2.5);
        return buf;
    }

private slots:
    void initTestCase() {
        QVERIFY(locales_.isValid());
        QProcess localedef;
        localedef.start("localedef", {"-i", "de_DE", "-f", "UTF-8", locales_.filePath("de_DE.UTF-8")});
        QVERIFY2(localedef.waitForFinished(60000) && localedef.exitCode() == 0,
                 qPrintable("localedef -i de_DE failed (is Debian's `locales` installed?): " +
                            localedef.errorString() + " " + localedef.readAllStandardError()));
        qputenv("LOCPATH", locales_.path().toLocal8Bit());
    }

    // What QApplication does on a German desktop: the C library's locale and
    // Qt's default locale from the environment.
    void init() {
        QVERIFY(std::setlocale(LC_ALL, "de_DE.UTF-8"));
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(printfTwoAndAHalf(), std::string("2,5"));  // the trap is set
    }

    void cleanup() {
        std::setlocale(LC_ALL, "C");
        QLocale::setDefault(QLocale::c());
    }

    void sweepCsvKeepsItsColumns() {
        SweepResult res;
        SweepRow r;
        r.strategy = "poet";
        r.ram_budget_bytes = 737719;
        r.runtime_budget_factor = 1.5;
        r.status = SolveStatus::Optimal;
        r.compute_energy_j = 0.5;
        r.paging_energy_j = 0.051020;
        r.total_energy_j = 0.551020;
        r.runtime_s = 0.125;
        r.peak_ram_bytes = 737000;
        r.gap = 0.00058;
        r.best_bound_j = 0.5507;
        r.solve_time_s = 0.25;
        res.rows.push_back(r);
        SweepRow none = r;  // an infeasible point: no figures, and no bound (0 J is not one)
        none.status = SolveStatus::Infeasible;
        none.best_bound_j = 0;
        res.rows.push_back(none);
        // What was swept closes each row; a name with a comma is quoted.
        res.model = "resnet18_cifar";
        res.platform = "m4, slow";
        res.batch_size = 1;
        res.options.paging = false;
        const std::string csv = sweepCsv(res);
        const std::string rows = csv.substr(csv.find('\n') + 1);
        QCOMPARE(rows, std::string("poet,737719,1.5,optimal,0.5,0.05102,0.55102,0.125,737000,0.00058,0.5507,0.25,,"
                                   "resnet18_cifar,\"m4, slow\",1,0,1\n"
                                   "poet,737719,1.5,infeasible,,,,,,,,0.25,,resnet18_cifar,\"m4, slow\",1,0,1\n"));
    }

    void explorerFiguresUseAPoint() {
        QCOMPARE(ui::formatEnergy(7.88951), std::string("7.8895 J"));
        QCOMPARE(ui::formatEnergy(0.0123), std::string("12.300 mJ"));
        QCOMPARE(ui::formatSeconds(0.0125), std::string("12.50 ms"));
        QCOMPARE(ui::formatBytes(2451072), std::string("2.45 MB"));
        QCOMPARE(ui::formatBytes(40680554), std::string("40.7 MB"));
        QCOMPARE(ui::formatEnergyLike(0, 0.5), std::string("0 mJ"));
        QCOMPARE(ui::formatEnergyLike(0.038296, 3.4407), std::string("0.0383 J"));
        QCOMPARE(ui::formatEnergyLike(3.4407, 3.4407), ui::formatEnergy(3.4407));
        QCOMPARE(ui::formatFactor(1.5), std::string("1.50x"));
        QCOMPARE(ui::formatFactor(1.002), std::string("1.002x"));
        QCOMPARE(ui::formatFactor(2), std::string("2.00x"));
        QCOMPARE(ui::formatFactor(1.0005), std::string("1.0005x"));  // read "1.00x" beside a 1.0005 solve
        QCOMPARE(ui::formatRatio(1.0362), std::string("1.036x"));
        QCOMPARE(ui::formatRatio(1.5), std::string("1.50x"));
    }

    void typedBudgetsReadAPoint() {
        QCOMPARE(parseRamBudget("2.5MiB", 1000).value_or(-1), std::int64_t{2621440});
        QCOMPARE(parseRamBudget("10.6%", 383778816).value_or(-1), std::int64_t{40680554});
    }

    // The explorer's start-up call: Qt's boxes and the C library write 1.50
    // and 2.5 again, and a spin box reads what the user types with a point.
    void startUpSetsThePointEverywhere() {
        ui::useDecimalPoint();
        QCOMPARE(printfTwoAndAHalf(), std::string("2.5"));
        QDoubleSpinBox box;
        box.setDecimals(2);
        box.setValue(1.5);
        QCOMPARE(box.text(), QStringLiteral("1.50"));
        QCOMPARE(box.valueFromText(QStringLiteral("1.75")), 1.75);
        QCOMPARE(QLocale().toString(0.5), QStringLiteral("0.5"));
    }
};

QTEST_MAIN(TstDecimalPoint)
#include "tst_decimal_point.moc"

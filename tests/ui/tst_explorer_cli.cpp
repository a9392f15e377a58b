// poet-explorer as a program: --screenshot writes a PNG of the window once the
// first schedule arrived and exits 0; bad options exit 4 with a message.
#include <QImage>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

class TestExplorerCli : public QObject {
    Q_OBJECT
private slots:
    void screenshot();
    void screenshotExitCodeSaysWhatCame();
    void modelGivenByItsFile();
    void paretoScreenshotShowsTheSweep();
    void badOptionsExit4_data();
    void badOptionsExit4();
    void onlyOptionMistakesPointAtHelp();
    void qtOptionsGoToQt();
    void sigtermClosesTheWindowAndKeepsItsSettings();

private:
    int run(const QStringList& args, QByteArray* err = nullptr) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        env.insert("POET_PROFILES", POET_PROFILES_DIR);
        p.setProcessEnvironment(env);
        p.start(POET_EXPLORER_BIN, args);
        if (!p.waitForFinished(120000)) {
            p.kill();
            return -1;
        }
        if (err) *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }
};

void TestExplorerCli::screenshot() {
    QTemporaryDir dir;
    const QString png = dir.filePath("shot.png");
    QByteArray err;
    // A percentage of the peak, as a user types it (10.6% once failed the syntax check).
    const int code = run({"--model", "linear", "--platform", "a72", "--ram-budget", "60.5%", "--time-limit", "20",
                          "--screenshot", png},
                         &err);
    QVERIFY2(code == 0, err.constData());
    QImage img(png);
    QVERIFY(!img.isNull());
    QVERIFY(img.width() >= 800 && img.height() >= 500);
    // Not blank: the heatmap's "computed" blue is there.
    int blue = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
            if (img.pixelColor(x, y) == QColor(0x00, 0x72, 0xB2)) ++blue;
    QVERIFY2(blue > 20, "the screenshot shows no computed cells");
}

// A script that takes screenshots learns from the exit code whether there
// was a schedule to show, and --help says which code is which.
void TestExplorerCli::screenshotExitCodeSaysWhatCame() {
    QTemporaryDir dir;
    QByteArray err;
    QCOMPARE(run({"--model", "linear", "--platform", "m4", "--ram-budget", "100", "--screenshot", dir.filePath("x.png")},
                 &err),
             2);
    QVERIFY(QFileInfo::exists(dir.filePath("x.png")));  // the window says why
    QProcess help;
    help.start(POET_EXPLORER_BIN, {"--help"});
    QVERIFY(help.waitForFinished(30000));
    const QString text = QString::fromUtf8(help.readAllStandardOutput()).simplified();
    QVERIFY2(text.contains("0 with a schedule, 2 infeasible (proven), 3 no schedule within the time limit, 4 bad "
                           "input"),
             qPrintable(text));
}

// A model profile given by its path, as `poet solve` takes it: it was
// refused ("unknown model", exit 4).
void TestExplorerCli::modelGivenByItsFile() {
    QTemporaryDir dir;
    const QString mine = dir.filePath("mine.yaml");
    QVERIFY(QFile::copy(QStringLiteral(POET_PROFILES_DIR) + "/models/linear.yaml", mine));
    QByteArray err;
    QCOMPARE(run({"--model", mine, "--platform", "a72", "--screenshot", dir.filePath("x.png")}, &err), 0);
    QVERIFY2(!QImage(dir.filePath("x.png")).isNull(), err.constData());
    QCOMPARE(run({"--model", dir.filePath("none.yaml"), "--screenshot", dir.filePath("y.png")}, &err), 4);
    QVERIFY2(err.contains("no model profile file '" + dir.filePath("none.yaml").toUtf8() + "'"), err.constData());
}

// --tab pareto runs the tab's sweep after the first solve and renders it:
// POET's orange markers are on the plot (none before the sweep). The name
// is taken as the tab shows it too ("Pareto" was refused).
void TestExplorerCli::paretoScreenshotShowsTheSweep() {
    QTemporaryDir dir;
    const QString png = dir.filePath("pareto.png");
    QByteArray err;
    QCOMPARE(run({"--model", "linear", "--platform", "m4", "--ram-budget", "60%", "--time-limit", "1", "--tab",
                  "Pareto", "--screenshot", png},
                 &err),
             0);
    QImage img(png);
    QVERIFY2(!img.isNull(), err.constData());
    int poetOrange = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (img.pixelColor(x, y) == QColor(0xD5, 0x5E, 0x00)) ++poetOrange;
    QVERIFY2(poetOrange > 50, qPrintable(QString::number(poetOrange)));
}

void TestExplorerCli::badOptionsExit4_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown option") << QStringList{"--frobnicate"} << "frobnicate";
    QTest::newRow("unknown model") << QStringList{"--model", "nosuchnet", "--screenshot", "/tmp/x.png"} << "nosuchnet";
    QTest::newRow("bad budget") << QStringList{"--ram-budget", "lots"} << "--ram-budget";
    QTest::newRow("runtime below 1") << QStringList{"--runtime-budget", "0.5"} << "--runtime-budget";
    QTest::newRow("bad batch") << QStringList{"--batch-size", "-3"} << "--batch-size";
    QTest::newRow("bad time limit") << QStringList{"--time-limit", "soon"} << "--time-limit";
    QTest::newRow("negative gap") << QStringList{"--gap", "-0.01"} << "--gap";
    // Outside the window's boxes, or finer than they hold: refused, not
    // clamped or rounded without a word (500 showed as 100 x and 1.00005
    // as 1.0001 x while the solve used the value given).
    QTest::newRow("runtime above the box") << QStringList{"--runtime-budget", "500"} << "from 1.0 to 100";
    QTest::newRow("runtime finer than the box") << QStringList{"--runtime-budget", "1.00005"}
                                                << "at most 4 decimals (1.0005), not '1.00005'";
    QTest::newRow("time limit below the box") << QStringList{"--time-limit", "0.2"} << "0.5 to 3600 seconds";
    QTest::newRow("gap finer than the box") << QStringList{"--gap", "0.00004"} << "steps of 0.0001";
    QTest::newRow("screenshot not png") << QStringList{"--screenshot", "/tmp/x.jpg"} << "png";
    // Before the solve it would wait for (it exited 1 after it).
    QTest::newRow("screenshot nowhere") << QStringList{"--screenshot", "/nonexistent/x.png"}
                                        << "--screenshot: /nonexistent/x.png: no directory /nonexistent";
    QTest::newRow("unknown tab") << QStringList{"--tab", "heatmap"}
                                 << "--tab must be one of schedule, cells, pareto, not 'heatmap'";
    QTest::newRow("1e400 bytes") << QStringList{"--ram-budget", "1e400"} << "--ram-budget";
    // Past the box (it showed 1e13 B beside a label of 9e18 B).
    QTest::newRow("RAM above the box") << QStringList{"--model", "linear", "--ram-budget", "9e18", "--screenshot",
                                                      "/tmp/x.png"}
                                       << "bad --ram-budget '9e18': at most 1e13 bytes";
    // As `poet` refuses them: the last of two was taken without a word.
    QTest::newRow("platform twice") << QStringList{"--platform", "a72", "--platform", "m4"}
                                    << "--platform: given 2 times; give it once";
    QTest::newRow("budget twice") << QStringList{"--ram-budget", "20%", "--ram-budget", "90%"}
                                  << "--ram-budget: given 2 times; give it once";
}

void TestExplorerCli::badOptionsExit4() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QByteArray err;
    QCOMPARE(run(args, &err), 4);
    QVERIFY2(QString::fromUtf8(err).contains(message), err.constData());
}

// --help explains options, not profiles: a model that is not there (or does
// not load) is no option mistake.
void TestExplorerCli::onlyOptionMistakesPointAtHelp() {
    const QByteArray hint = "Try 'poet-explorer --help'.";
    QByteArray err;
    QCOMPARE(run({"--model", "nosuchnet", "--screenshot", "/tmp/x.png"}, &err), 4);
    QVERIFY2(err.contains("unknown model 'nosuchnet'") && !err.contains(hint), err.constData());
    QCOMPARE(run({"--ram-budget", "lots"}, &err), 4);
    QVERIFY2(err.contains(hint), err.constData());
}

// Qt's own options reach Qt: "-style fusion" was read as the unknown
// options s, t, y, l, e (exit 4). Its value may follow or be joined by '='.
void TestExplorerCli::qtOptionsGoToQt() {
    QTemporaryDir dir;
    QByteArray err;
    QCOMPARE(run({"-style", "fusion", "-reverse", "--model", "linear", "--platform", "m4", "--time-limit", "5",
                  "--screenshot", dir.filePath("a.png")},
                 &err),
             0);
    QCOMPARE(run({"--style=windows", "--model", "linear", "--platform", "m4", "--time-limit", "5", "--screenshot",
                  dir.filePath("b.png")},
                 &err),
             0);
    QVERIFY2(!err.contains("Unknown option"), err.constData());
}

// SIGTERM (a logout, `kill`) closes the window as its close button does,
// mid-solve: exit 0 and the settings saved. It ended the process at once
// (exit 143), and the session's settings were lost.
void TestExplorerCli::sigtermClosesTheWindowAndKeepsItsSettings() {
    QTemporaryDir dir;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("POET_PROFILES", POET_PROFILES_DIR);
    env.insert("XDG_CONFIG_HOME", dir.filePath("config"));
    p.setProcessEnvironment(env);
    // bert at 11% is still solving after seconds.
    p.start(POET_EXPLORER_BIN, {"--model", "bert", "--platform", "m4", "--ram-budget", "11%", "--time-limit", "60"});
    QVERIFY(p.waitForStarted());
    QVERIFY(!p.waitForFinished(4000));
    ::kill(static_cast<pid_t>(p.processId()), SIGTERM);
    QVERIFY2(p.waitForFinished(30000), "still running 30 s after SIGTERM");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    QSettings saved(dir.filePath("config/poet/poet-explorer.conf"), QSettings::IniFormat);
    QCOMPARE(saved.value("explorer/model").toString(), QStringLiteral("bert"));
}

QTEST_GUILESS_MAIN(TestExplorerCli)
#include "tst_explorer_cli.moc"

// poet-explorer: the desktop face of POET Explorer. Takes the same problem
// options as `poet solve`; --screenshot renders the window once the first
// schedule arrived and exits (for docs, tests and CI).
#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QImage>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "atomic_write.h"
#include "decimal_point.h"
#include "explorer_terminate.h"
#include "explorer_window.h"
#include "heap_tuning.h"
#include "profile_catalog.h"
#include "ram_budget_text.h"
#include "solve_bridge.h"
#include "status_line.h"

namespace {

// The exit codes of `poet` (app/cli_common.h).
constexpr int kOk = 0;
constexpr int kInternalError = 1;
constexpr int kInfeasible = 2;
constexpr int kNoSolution = 3;
constexpr int kBadInput = 4;

// `options`: the mistake is in the command line, which --help explains (not
// in a profile: --help says nothing of a YAML error).
int badInput(const QString& message, bool options = true) {
    std::fprintf(stderr, "poet-explorer: %s\n%s", qPrintable(message), options ? "Try 'poet-explorer --help'.\n" : "");
    return kBadInput;
}

using Ranges = poet::ui::ExplorerRanges;

// Whether the window's box, with `decimals`, holds `v` as given (it rounds).
bool hasAtMostDecimals(double v, int decimals) {
    const double scaled = v * std::pow(10.0, decimals);
    return std::abs(scaled - std::round(scaled)) <= 1e-9 * std::max(1.0, std::abs(scaled));
}

// How many words a Qt option takes up (QApplication's and QGuiApplication's
// own, which they read and remove), with its value: 0 for any other word.
int qtOptionWords(QByteArray word) {
    if (!word.startsWith('-')) return 0;
    word = word.mid(word.startsWith("--") ? 2 : 1);
    const QByteArray name = word.contains('=') ? word.left(word.indexOf('=')) : word;
    static const QByteArrayList withValue = {"style",   "stylesheet",      "platformtheme", "platformpluginpath",
                                             "plugin",  "qwindowgeometry", "qwindowicon",   "qwindowtitle",
                                             "session", "display",         "geometry",      "title",
                                             "name",    "qmljsdebugger"};
    static const QByteArrayList flags = {"reverse", "widgetcount", "nograb", "dograb"};
    if (withValue.contains(name)) return word.contains('=') ? 1 : 2;
    return flags.contains(word) ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    Q_INIT_RESOURCE(resources);  // resources.qrc lives in the static poet_ui library
    // QGuiApplication takes "--platform X" as its own (the windowing plugin).
    // Ours means the device profile, as in `poet solve`: rename it before Qt sees it.
    // Qt's own options (-style fusion, -reverse, ...) go to QApplication
    // alone: the parser below read "-style" as five unknown letters.
    std::vector<QByteArray> storage;
    QStringList arguments;
    for (int i = 0; i < argc; ++i) {
        QByteArray a(argv[i]);
        if (a == "--platform" || a == "-platform") a = "--poet-device-platform";
        else if (a.startsWith("--platform=")) a = "--poet-device-platform=" + a.mid(11);
        storage.push_back(a);
        const int qtWords = i > 0 ? qtOptionWords(a) : 0;
        if (qtWords == 0) arguments << QString::fromLocal8Bit(a);
        for (int k = 1; k < qtWords && i + 1 < argc; ++k) storage.emplace_back(argv[++i]);
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Plan how a neural network trains on a device with too little RAM (POET: rematerialization "
                       "and paging).\nQt's own options (-style, -stylesheet, -reverse, ...) go to Qt; the windowing "
                       "plugin is QT_QPA_PLATFORM, since --platform names the device."));
    const QCommandLineOption help(QStringList{"h", "help"}, "Show this help.");
    const QCommandLineOption version(QStringList{"version"}, "Show the version.");
    const QCommandLineOption model(QStringList{"model"}, "Model profile: a name, or a YAML file's path (default resnet18_cifar).", "M");
    const QCommandLineOption platformHelp(QStringList{"platform"}, "Platform profile: a name, or a YAML file's path (default a72).", "P");
    const QCommandLineOption platform = [] {
        QCommandLineOption o(QStringList{"poet-device-platform"}, "Platform profile.", "P");
        o.setFlags(QCommandLineOption::HiddenFromHelp);
        return o;
    }();
    const QCommandLineOption batch(QStringList{"batch-size"}, "Batch size (default: the model profile's).", "N");
    const QCommandLineOption ram(QStringList{"ram-budget"},
                                 "RAM budget in bytes, or 3MB, 2.9MiB, 60% of the plain-pass peak (default: the "
                                 "plain-pass peak).",
                                 "BYTES");
    const QCommandLineOption runtime(QStringList{"runtime-budget"},
                                     "Runtime budget as a factor of one plain pass, 1.0 to 100, up to four "
                                     "decimals (default 1.0).",
                                     "F");
    const QCommandLineOption noPaging(QStringList{"no-paging"}, "Switch paging off.");
    const QCommandLineOption noRemat(QStringList{"no-remat"}, "Switch rematerialization off.");
    const QCommandLineOption timeLimit(QStringList{"time-limit"},
                                       "Solver time limit in seconds, 0.5 to 3600 in steps of 0.1 (default 30).", "S");
    const QCommandLineOption gap(QStringList{"gap"},
                                 "Stop when the schedule is proven within this relative gap of the optimum "
                                 "(0 to 0.1 in steps of 0.0001; default 0.005 = 0.5 %).",
                                 "G");
    const QCommandLineOption tab(QStringList{"tab"},
                                 "Open on this tab: schedule, cells or pareto (default: the one open when the "
                                 "explorer last closed). With --screenshot, pareto runs a 12-point RAM sweep (each "
                                 "point within the time limit and 10 s) after the first solve and renders it when it "
                                 "ends.",
                                 "NAME");
    const QCommandLineOption screenshot(QStringList{"screenshot"},
                                        "Render the window to FILE.png once the first solve finished, then exit: "
                                        "0 with a schedule, 2 infeasible (proven), 3 no schedule within the time "
                                        "limit, 4 bad input, as `poet solve`.",
                                        "FILE.png");
    for (const QCommandLineOption* o : {&help, &version, &model, &platformHelp, &platform, &batch, &ram, &runtime,
                                        &noPaging, &noRemat, &timeLimit, &gap, &tab, &screenshot})
        parser.addOption(*o);
    // Options are checked before any window system is touched: a typo needs no display.
    if (!parser.parse(arguments)) return badInput(parser.errorText());
    if (parser.isSet(help) || parser.isSet(version)) {
        std::fputs(qPrintable(parser.isSet(help) ? parser.helpText().replace("<executable_name>", "poet-explorer")
                                                 : QStringLiteral("poet-explorer 0.1.0\n")),
                   stdout);
        return kOk;
    }
    // As `poet` says: the last of two was taken without a word.
    for (const QCommandLineOption* o : {&model, &platform, &batch, &ram, &runtime, &timeLimit, &gap, &tab, &screenshot})
        if (const qsizetype n = parser.values(*o).size(); n > 1)
            return badInput(QStringLiteral("--%1: given %2 times; give it once")
                                .arg(o == &platform ? QStringLiteral("platform") : o->names().constFirst())
                                .arg(n));
    if (!parser.positionalArguments().isEmpty())
        return badInput(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    poet::ui::ExplorerOptions opts;
    if (parser.isSet(model)) opts.model = parser.value(model);
    if (parser.isSet(platform)) opts.platform = parser.value(platform);
    if (parser.isSet(batch)) {
        bool ok = false;
        const int n = parser.value(batch).toInt(&ok);
        if (!ok || n <= 0) return badInput(QStringLiteral("--batch-size must be a positive integer, not '%1'").arg(parser.value(batch)));
        opts.batch_size = n;
    }
    if (parser.isSet(ram)) {
        // Syntax now, against a stand-in peak of 1e12 B (with 1 B, "10%" is
        // no whole byte); percentages resolve once the real peak is known.
        if (!poet::parseRamBudget(parser.value(ram).toStdString(), 1'000'000'000'000))
            return badInput(
                QStringLiteral("--ram-budget must be 1 to 1e13 bytes (e.g. 3000000, 3MB, 2.9MiB, 60%), not '%1'")
                    .arg(parser.value(ram)));
        opts.ram_budget = parser.value(ram);
    }
    if (parser.isSet(runtime)) {
        bool ok = false;
        const double f = parser.value(runtime).toDouble(&ok);
        if (!ok || !(f >= 1.0) || f > Ranges::kRuntimeFactorMax ||
            !hasAtMostDecimals(f, Ranges::kRuntimeFactorDecimals))
            return badInput(QStringLiteral("--runtime-budget must be a factor of one plain pass from 1.0 to %1, with "
                                           "at most %2 decimals (1.0005), not '%3'")
                                .arg(Ranges::kRuntimeFactorMax)
                                .arg(Ranges::kRuntimeFactorDecimals)
                                .arg(parser.value(runtime)));
        opts.runtime_budget = f;
    }
    if (parser.isSet(noPaging)) opts.paging = false;
    if (parser.isSet(noRemat)) opts.remat = false;
    if (parser.isSet(timeLimit)) {
        bool ok = false;
        const double s = parser.value(timeLimit).toDouble(&ok);
        if (!ok || !(s >= Ranges::kTimeLimitMinS) || s > Ranges::kTimeLimitMaxS ||
            !hasAtMostDecimals(s, Ranges::kTimeLimitDecimals))
            return badInput(QStringLiteral("--time-limit must be %1 to %2 seconds, in steps of 0.1 s, not '%3'")
                                .arg(Ranges::kTimeLimitMinS)
                                .arg(Ranges::kTimeLimitMaxS)
                                .arg(parser.value(timeLimit)));
        opts.time_limit_s = s;
    }
    if (parser.isSet(gap)) {
        bool ok = false;
        const double g = parser.value(gap).toDouble(&ok);
        if (!ok || !(g >= 0) || g * 100 > Ranges::kGapPercentMax ||
            !hasAtMostDecimals(g * 100, Ranges::kGapPercentDecimals))
            return badInput(QStringLiteral("--gap must be a relative gap from 0 to %1 in steps of 0.0001 (0.005 = "
                                           "0.5 %), not '%2'")
                                .arg(Ranges::kGapPercentMax / 100)
                                .arg(parser.value(gap)));
        opts.gap = g;
    }
    if (parser.isSet(tab)) {
        const QStringList names = poet::ui::ExplorerWindow::tabNames();
        const QString name = parser.value(tab).toLower();  // as the tab reads it: "Pareto"
        if (!names.contains(name))
            return badInput(
                QStringLiteral("--tab must be one of %1, not '%2'").arg(names.join(", "), parser.value(tab)));
        opts.tab = name;
    }
    const bool shot = parser.isSet(screenshot);
    const QString shotPath = parser.value(screenshot);
    if (shot && !shotPath.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
        return badInput(QStringLiteral("--screenshot needs a .png file name, not '%1'").arg(shotPath));
    if (shot) {  // before the solve it waits for, not after
        try {
            poet::checkWritable(shotPath.toStdString());
        } catch (const std::runtime_error& e) {
            return badInput(QStringLiteral("--screenshot: ") + QString::fromUtf8(e.what()));
        }
    }
    // A screenshot is reproducible: it neither reads nor writes the saved settings.
    opts.use_settings = !shot;
    try {
        const poet::ProfileCatalog catalog = poet::ProfileCatalog::standard();
        if (opts.model) (void)catalog.modelFile(opts.model->toStdString());
        if (opts.platform) (void)catalog.platformFile(opts.platform->toStdString());
        if (const std::string unusable = catalog.unusableNamedRootsText(); !unusable.empty())
            std::fprintf(stderr, "poet-explorer: warning: %s; the profiles listed come from the other directories\n",
                         unusable.c_str());
    } catch (const std::exception& e) {
        return badInput(QString::fromUtf8(e.what()), /*options=*/false);
    }

    // A screenshot needs no display: render offscreen unless a platform is chosen.
    if (shot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    std::vector<char*> qtArgv;
    for (auto& a : storage) qtArgv.push_back(a.data());
    qtArgv.push_back(nullptr);
    int qtArgc = argc;
    QApplication app(qtArgc, qtArgv.data());
    poet::ui::useDecimalPoint();
    QApplication::setApplicationName(QStringLiteral("poet-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("POET Explorer"));
    QApplication::setOrganizationName(QStringLiteral("poet"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setDesktopFileName(QStringLiteral("poet-explorer"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/poet/poet-explorer.svg")));
    poet::ui::SolveBridge::registerMetaTypes();

    poet::ui::ExplorerWindow window;
    if (shot) window.resize(1500, 950);
    QString error;
    if (!window.initialize(opts, &error)) {
        // Started from a desktop menu, stderr is read by no one: the window
        // that does not open says why.
        if (!shot) QMessageBox::critical(nullptr, QStringLiteral("POET Explorer"), error);
        return badInput(error, /*options=*/false);
    }
    if (!shot) {
        poet::app::closeWindowsOnTerminate(&app);
        window.show();
        return app.exec();
    }

    window.show();
    int code = kInternalError;
    const double limit = opts.time_limit_s.value_or(30.0);
    QTimer watchdog;
    watchdog.setSingleShot(true);
    QObject::connect(&watchdog, &QTimer::timeout, &app, [&] {
        std::fprintf(stderr, "poet-explorer: no answer from the solver within %.0f s; no screenshot written\n",
                     limit + 30);
        code = kNoSolution;
        app.exit(code);
    });
    watchdog.start(static_cast<int>((limit + 30) * 1000));
    // The exit code is the first solve's, as `poet solve` would answer; with
    // --tab pareto the window is rendered once the sweep after it has ended.
    auto render = [&](bool hasSchedule) {
        // Let layouts and queued replots settle before grabbing.
        QTimer::singleShot(150, &app, [&, hasSchedule] {
            const QImage img = window.grab().toImage();
            QByteArray bytes;
            QBuffer buf(&bytes);
            buf.open(QIODevice::WriteOnly);
            QSaveFile f(shotPath);
            if (img.isNull() || !img.save(&buf, "PNG") || !f.open(QIODevice::WriteOnly) ||
                f.write(bytes) != bytes.size() || !f.commit()) {
                std::fprintf(stderr, "poet-explorer: cannot write %s: %s\n", qPrintable(shotPath),
                             qPrintable(f.errorString()));
                code = kInternalError;
            } else if (!hasSchedule) {
                std::fprintf(stderr, "poet-explorer: wrote %s, but no schedule was found: %s\n", qPrintable(shotPath),
                             qPrintable(window.statusLine()->text().remove(QRegularExpression("<[^>]*>"))));
                code = window.lastStatus() == poet::SolveStatus::Infeasible ? kInfeasible : kNoSolution;
            } else {
                code = kOk;
            }
            app.exit(code);
        });
    };
    const bool sweepFirst = opts.tab == QStringLiteral("pareto");
    QObject::connect(&window, &poet::ui::ExplorerWindow::solveSettled, &app, [&](bool hasSchedule) {
        if (!sweepFirst) return render(hasSchedule);
        // Every point ends within its time limit: the sweep needs no watchdog.
        watchdog.stop();
        QObject::connect(&window, &poet::ui::ExplorerWindow::sweepSettled, &app,
                         [&render, hasSchedule] { render(hasSchedule); });
        window.runParetoSweep();
    });
    app.exec();
    return code;
}

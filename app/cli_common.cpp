#include "cli_common.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>

#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "problem_loader.h"
#include "profile_error.h"
#include "ram_budget_text.h"
#include "solve_cache.h"

namespace poet::cli {

void addProblemOptions(CLI::App* cmd, ProblemArgs& a, bool require_budget)
{
    cmd->add_option("--model", a.model, "Model profile: a name (see `poet list`) or a YAML file's path")->capture_default_str();
    cmd->add_option("--platform", a.platform, "Platform profile: a name (see `poet list`) or a YAML file's path")->capture_default_str();
    cmd->add_option("--batch-size", a.batch_size, "Batch size (default: the model profile's)")
        ->check(positiveWholeNumber());
    auto* ram = cmd->add_option("--ram-budget", a.ram_budget,
                                "RAM budget: bytes (3000000), with a unit (3MB, 2.5MiB, 737kB) or a percentage of the "
                                "plain-pass peak (30%)");
    // Empty is not "the default" (the plain-pass peak where the option is
    // left out): a script's unset variable would get a meaningless answer.
    ram->check(CLI::Validator(
        [](std::string& text) -> std::string {
            return text.empty() ? "must be a RAM budget (3000000, 3MB, 2.5MiB, 30%), got ''" : std::string();
        },
        ""));
    if (require_budget) ram->required();
    cmd->add_option("--runtime-budget", a.runtime_budget, "Runtime budget as a factor of one plain pass (e.g. 1.5)")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_flag("--no-paging", a.no_paging, "Forbid paging to secondary storage");
    cmd->add_flag("--no-remat", a.no_remat, "Forbid rematerialization (recomputation)");
}

namespace {

// The whole of `text` as a finite number, or nothing.
std::optional<double> numberIn(const std::string& text)
{
    try {
        std::size_t used = 0;
        const double value = std::stod(text, &used);
        if (used == text.size() && std::isfinite(value)) return value;
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

CLI::Validator numberCheck(const std::function<bool(double)>& holds, const std::string& wanted)
{
    return CLI::Validator(
        [holds, wanted](std::string& text) -> std::string {
            const auto value = numberIn(text);
            return value && holds(*value) ? std::string() : "must be " + wanted + ", got '" + text + "'";
        },
        "");
}

}  // namespace

CLI::Validator positiveNumber()
{
    return numberCheck([](double v) { return v > 0; }, "a positive number");
}

CLI::Validator positiveWholeNumber()
{
    return numberCheck([](double v) { return v >= 1 && v == std::floor(v) && v <= 1e9; },
                       "a whole number from 1 to 1e9");  // "a positive whole number" refused 2147483647
}

CLI::Validator nonEmptyPath(const char* what)
{
    return CLI::Validator(
        [what](std::string& text) {
            return text.empty() ? std::string("must be ") + what + ", got ''" : std::string();
        },
        "");
}

CLI::Validator wholeNumberFrom(int lo, int hi)
{
    return numberCheck([lo, hi](double v) { return v >= lo && v <= hi && v == std::floor(v); },
                       "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
}

CLI::Validator fractionFrom0To1()
{
    return numberCheck([](double v) { return v >= 0 && v <= 1; }, "a fraction from 0 to 1 (0.005 = 0.5%)");
}

bool namesStandardOutput(const std::string& path)
{
    if (path == "-") return true;
    struct stat out{}, named{};
    return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &named) == 0 && out.st_dev == named.st_dev &&
           out.st_ino == named.st_ino;
}

void checkOutputFile(const std::string& option, const std::string& path)
{
    if (namesStandardOutput(path)) return;
    try {
        checkWritable(path);
    } catch (const std::runtime_error& e) {
        throw BadInput(option + ": " + e.what());
    }
}

void checkCacheDirectory(const std::string& path)
{
    if (const std::string why = unusableCacheDirectory(path); !why.empty()) throw BadInput("--cache-dir: " + why);
}

std::string formatSeconds(double seconds)
{
    char text[64];
    std::snprintf(text, sizeof text, seconds < 1e6 ? "%.6f" : "%.6g", seconds);
    return text;
}

void printProblemAndBudgets(const Problem& p, int width, const std::string& ram_note,
                            const std::string& runtime_note)
{
    std::printf("model %s on %s, batch %d, paging %s, remat %s\n", p.model.c_str(), p.platform.c_str(), p.batch_size,
                p.options.paging ? "on" : "off", p.options.remat ? "on" : "off");
    const auto note = [](const std::string& n) { return n.empty() ? n : "; " + n; };
    std::printf("%-*sRAM %lld B (%.1f%% of the plain-pass peak%s), runtime %gx (%s s%s)\n", width, "budgets",
                static_cast<long long>(p.ram_budget_bytes),
                100.0 * static_cast<double>(p.ram_budget_bytes) / plainPassPeakBytes(p.graph), note(ram_note).c_str(),
                p.runtime_budget_factor, formatSeconds(p.runtimeBudgetSeconds()).c_str(), note(runtime_note).c_str());
}

Problem loadProblem(const ProblemArgs& a)
{
    if (a.ram_budget.size() && a.ram_budget[0] == '-')
        throw BadInput("--ram-budget: must be positive, got '" + a.ram_budget + "'");
    if (!(a.runtime_budget > 0) || !std::isfinite(a.runtime_budget))
        throw BadInput("--runtime-budget: must be a positive factor of one plain pass, got " +
                       std::to_string(a.runtime_budget));
    Problem p;
    const ProfileCatalog catalog = ProfileCatalog::standard();
    try {
        p = loadProblemGraph(catalog, a.model, a.platform, a.batch_size);
    } catch (const ProfileError& e) {
        throw BadInput(e.what());
    } catch (const std::invalid_argument& e) {
        throw BadInput(e.what());
    }
    // A mistyped POET_PROFILES loaded the bundled profile of the same name in silence.
    if (const std::string unusable = catalog.unusableNamedRootsText(); !unusable.empty())
        std::fprintf(stderr, "poet: warning: %s; %s and %s come from the other directories\n", unusable.c_str(),
                     a.model.c_str(), a.platform.c_str());
    p.runtime_budget_factor = a.runtime_budget;
    p.options.paging = !a.no_paging;
    p.options.remat = !a.no_remat;
    p.ram_budget_bytes = plainPassPeakBytes(p.graph);
    if (!a.ram_budget.empty()) {
        const auto bytes = parseRamBudget(a.ram_budget, p.ram_budget_bytes);
        // A share that is a budget on a larger network, under a byte on this one.
        if (!bytes && parseRamBudget(a.ram_budget, 1'000'000'000'000'000))
            throw BadInput("--ram-budget: " + a.ram_budget + " of " + p.model + "'s plain-pass peak (" +
                           std::to_string(p.ram_budget_bytes) + " B) is less than one byte");
        if (!bytes)
            throw BadInput("--ram-budget: '" + a.ram_budget +
                           "' is not a RAM budget: 1 to 9e18 bytes, as 3000000, 3MB or 2.5MiB (units K, M, G, KiB, "
                           "MiB, GiB) or 30% of the plain-pass peak");
        p.ram_budget_bytes = *bytes;
        if (isFractionalByteCount(a.ram_budget))
            std::fprintf(stderr, "poet: warning: --ram-budget %s is read as %lld B (bytes, rounded down); for "
                                 "megabytes or a percentage write %sMB or %s%%\n",
                         a.ram_budget.c_str(), static_cast<long long>(*bytes), a.ram_budget.c_str(),
                         a.ram_budget.c_str());
    }
    return p;
}

}  // namespace poet::cli
